import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../schema/migrations.js';
import { openRaw, openStore } from '../test-support/driver.js';
import {
  expectRefused,
  isWalMode,
  listing,
  randomBytes,
  raw,
  refusal,
  skeinDatabase,
} from '../test-support/refusals.js';

// A file in WAL mode is where a refusal used to leave traces: SQLite's read-only connection
// creates `-wal` and `-shm` beside it and, unable to checkpoint, never removes them.

const root = mkdtempSync(join(tmpdir(), 'skein-sqlite-refused-wal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
function freshDir(): string {
  const dir = join(root, `case-${++counter}`);
  mkdirSync(dir);
  return dir;
}

/** A closed Skein database in WAL mode, damaged by `damage`. */
async function walDatabase(damage: (filename: string) => void): Promise<string> {
  const filename = await skeinDatabase(freshDir());
  damage(filename);
  expect(isWalMode(filename)).toBe(true);
  return filename;
}

describe('a refused WAL-mode file', () => {
  it('STORE_CORRUPT (a damaged page found by quick_check): the directory stays byte for byte as it was', async () => {
    const filename = await walDatabase((file) => {
      const bytes = readFileSync(file);
      randomBytes(4096, 11).copy(bytes, 4 * 4096);
      writeFileSync(file, bytes);
    });
    expectRefused(filename, 'STORE_CORRUPT');
    // Refused again: still nothing beside it.
    expectRefused(filename, 'STORE_CORRUPT');
  });

  it('STORE_FOREIGN (a table added by someone else): the directory stays byte for byte as it was', async () => {
    const filename = await walDatabase((file) =>
      raw(file, (db) => db.exec('CREATE TABLE notes (t)')),
    );
    expect(expectRefused(filename, 'STORE_FOREIGN').message).toMatch(/unexpected table notes/);
  });

  it('STORE_FOREIGN (a column changed): the directory stays byte for byte as it was', async () => {
    const filename = await walDatabase((file) =>
      raw(file, (db) => db.exec('ALTER TABLE threads ADD COLUMN owner TEXT')),
    );
    expect(expectRefused(filename, 'STORE_FOREIGN').message).toMatch(/table threads is/);
  });

  it("STORE_FOREIGN (another application's WAL database): the directory stays byte for byte as it was", async () => {
    const dir = freshDir();
    const filename = join(dir, 'app.db');
    raw(filename, (db) => {
      db.exec('PRAGMA journal_mode = WAL');
      db.exec(`PRAGMA application_id = ${0x5f4d534e}`);
      db.exec('CREATE TABLE events (at TEXT)');
    });
    expect(isWalMode(filename)).toBe(true);
    expectRefused(filename, 'STORE_FOREIGN');
  });

  it('STORE_TOO_NEW: the directory stays byte for byte as it was', async () => {
    const filename = await walDatabase((file) =>
      raw(file, (db) => db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`)),
    );
    expectRefused(filename, 'STORE_TOO_NEW');
  });

  it('with a WAL left by a writer that crashed: the database and its WAL are not written', async () => {
    // Copies of the three files taken while a writer held uncheckpointed frames.
    const source = await skeinDatabase(freshDir());
    const writer = openRaw(source);
    writer.exec('PRAGMA wal_autocheckpoint = 0');
    writer.exec('CREATE TABLE notes (t)');
    const dir = freshDir();
    const filename = join(dir, 'threads.db');
    for (const suffix of ['', '-wal', '-shm'])
      copyFileSync(`${source}${suffix}`, `${filename}${suffix}`);
    writer.close();
    const before = listing(dir);
    expect(refusal(filename)).toMatchObject({ code: 'STORE_FOREIGN' });
    const after = listing(dir);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    // Reading a WAL needs SQLite's shared-memory index, which a reader may rebuild.
    expect(after['threads.db']).toBe(before['threads.db']);
    expect(after['threads.db-wal']).toBe(before['threads.db-wal']);
  });

  it('a sound WAL-mode file still opens, and leaves nothing beside it once closed', async () => {
    const filename = await skeinDatabase(freshDir());
    const dir = join(filename, '..');
    const store = openStore({ filename });
    expect(await store.listThreads()).toMatchObject([{ threadId: 't', status: 'COMPLETED' }]);
    store.close();
    expect(Object.keys(listing(dir))).toEqual(['threads.db']);
  });
});
