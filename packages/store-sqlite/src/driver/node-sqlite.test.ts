import { describe, expect, it } from 'vitest';
import { loadNodeSqlite, nodeSqliteAvailable } from './node-sqlite.js';

// The check that decides both the default driver and whether vitest.config.ts runs the
// node:sqlite project. Each CI run covers one side: Node 20 (the main run) and Node 24.
describe('node:sqlite on this Node', () => {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const unflagged = major > 22 || (major === 22 && minor >= 13);

  it(`is available exactly from Node 22.13 on (this is ${process.version})`, () => {
    expect(process.execArgv).not.toContain('--experimental-sqlite');
    expect(nodeSqliteAvailable()).toBe(unflagged);
  });

  it('is the module with DatabaseSync when available, and nothing otherwise', () => {
    const sqlite = loadNodeSqlite();
    if (unflagged) expect(typeof sqlite?.DatabaseSync).toBe('function');
    else expect(sqlite).toBeUndefined();
  });
});
