import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { unbuiltBetterSqlite3 } from '../test-support/unbuilt-better-sqlite3.js';
import { chooseDriver } from './choose-driver.js';
import { nodeSqliteAvailable } from './node-sqlite.js';

const filename = '/tmp/threads.db';
const script = fileURLToPath(new URL('../test-support/choose-driver-child.ts', import.meta.url));
const packageDir = fileURLToPath(new URL('../../', import.meta.url));

interface Outcome {
  readonly choice: string;
  readonly driver?: string;
  readonly code?: string;
  readonly details?: Record<string, unknown>;
  readonly message?: string;
}

/** Each choice's outcome in a new process, for an app whose folder has no better-sqlite3. */
async function chosenWithoutBetterSqlite3(): Promise<Record<string, Outcome>> {
  const app = join(mkdtempSync(join(tmpdir(), 'skein-no-bs3-')), 'app.js');
  // pnpm's scripts set NODE_PATH, through which any folder would find the workspace's copy.
  const { NODE_PATH: _, ...env } = process.env;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script, app], {
    cwd: packageDir,
    env,
  });
  const outcomes = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Outcome);
  return Object.fromEntries(outcomes.map((outcome) => [outcome.choice, outcome]));
}

// Which expectations hold depends on the Node running the tests: Node 20 (the main run) has no
// node:sqlite, Node 24 (scripts/test-node.sh) has it, so both sides are checked.
describe('choosing the SQLite driver', () => {
  it('takes better-sqlite3 by default when it is installed, whatever the Node', () => {
    expect(chooseDriver(undefined, filename).name).toBe('better-sqlite3');
    expect(chooseDriver('better-sqlite3', filename).name).toBe('better-sqlite3');
  });

  it('takes better-sqlite3 by default when it is installed but not built (opening then says so)', () => {
    const from = unbuiltBetterSqlite3(mkdtempSync(join(tmpdir(), 'skein-unbuilt-')));
    expect(chooseDriver(undefined, filename, from).name).toBe('better-sqlite3');
  });

  it(`takes node:sqlite when asked, where this Node has it (${process.version}: ${nodeSqliteAvailable() ? 'yes' : 'no'})`, () => {
    const choose = () => chooseDriver('node:sqlite', filename);
    if (nodeSqliteAvailable()) expect(choose().name).toBe('node:sqlite');
    else
      expect(choose).toThrow(
        expect.objectContaining({
          code: 'STORE_NATIVE_MISSING',
          details: expect.objectContaining({ filename, driver: 'node:sqlite' }),
          message: expect.stringMatching(
            new RegExp(
              `needs Node 22\\.13 or later, and this is Node ${process.version}.*choose driver 'better-sqlite3'`,
            ),
          ),
        }),
      );
  });

  it('without better-sqlite3 installed: node:sqlite by default where Node has it, else an error naming both fixes', async () => {
    const outcomes = await chosenWithoutBetterSqlite3();
    const missing = {
      code: 'STORE_NATIVE_MISSING',
      details: { filename, driver: 'better-sqlite3', nodeVersion: process.version },
    };
    expect(outcomes['better-sqlite3']).toMatchObject(missing);
    expect(outcomes['better-sqlite3']?.message).toMatch(
      /the better-sqlite3 package is not installed\. Either install better-sqlite3 \(npm install better-sqlite3@\^12\.11\.1;.*choose driver 'node:sqlite'/,
    );
    if (nodeSqliteAvailable()) {
      expect(outcomes.default).toEqual({ choice: 'default', driver: 'node:sqlite' });
      expect(outcomes['node:sqlite']).toEqual({ choice: 'node:sqlite', driver: 'node:sqlite' });
    } else {
      expect(outcomes.default).toMatchObject(missing);
      expect(outcomes.default?.message).toContain(
        `no SQLite driver: Node ${process.version} has no node:sqlite`,
      );
      expect(outcomes.default?.message).toMatch(
        /npm install better-sqlite3@\^12\.11\.1.*or run on Node 22\.13 or later\.$/,
      );
      expect(outcomes['node:sqlite']).toMatchObject({
        code: 'STORE_NATIVE_MISSING',
        details: { driver: 'node:sqlite' },
      });
    }
  });
});
