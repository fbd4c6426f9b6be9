import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SkeinEngine, WorkflowBuilder } from '@skein/core';
import { checkMigrationOrder } from '@skein/core/store-kit';
import { afterAll, describe, expect, it } from 'vitest';
import { pragma, type SqliteConnection } from '../driver/connection.js';
import { openDatabase } from '../open/open-database.js';
import { openRaw, openStore, testDriver } from '../test-support/driver.js';
import { loopEngine } from '../test-support/loop-workflow.js';
import { applyMigrations, readVersion } from './migrate.js';
import { APPLICATION_ID, MIGRATIONS, type Migration, SCHEMA_VERSION } from './migrations.js';
import { compareShapes, expectedShape, readShape } from './schema-shape.js';

const dir = mkdtempSync(join(tmpdir(), 'skein-sqlite-migrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A migration a later version of this package might add.
const NEXT = SCHEMA_VERSION + 1;
const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const next: Migration = {
  version: NEXT,
  description: 'a note per thread',
  sql: 'ALTER TABLE threads ADD COLUMN note TEXT; CREATE TABLE labels (thread INTEGER, label TEXT);',
};
const broken: Migration = {
  version: NEXT,
  description: 'fails halfway',
  sql: 'CREATE TABLE labels (thread INTEGER); INSERT INTO no_such_table VALUES (1);',
};
const options = { filename: 'test.db', applicationId: APPLICATION_ID };

const driver = testDriver();

function columns(db: SqliteConnection, table: string): string[] {
  return db
    .prepare<[], { name: string }>(`PRAGMA table_info(${table})`)
    .all()
    .map((c) => c.name);
}

describe('schema migrations', () => {
  it('form an ordered list whose last version is the schema version', () => {
    expect(() => checkMigrationOrder(MIGRATIONS)).not.toThrow();
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.at(-1)!.version);
    expect(() => checkMigrationOrder([MIGRATIONS[0]!, { ...next, version: 3 }])).toThrow(
      /version 3/,
    );
  });

  it('bring a new database to the latest version and mark it as Skein', () => {
    const db = openRaw(':memory:');
    expect(applyMigrations(db, MIGRATIONS, options)).toEqual({ from: 0, to: SCHEMA_VERSION });
    expect(readVersion(db)).toBe(SCHEMA_VERSION);
    expect(pragma(db, 'application_id')).toBe(APPLICATION_ID);
    expect(applyMigrations(db, MIGRATIONS, options)).toEqual({
      from: SCHEMA_VERSION,
      to: SCHEMA_VERSION,
    });
    expect(compareShapes(readShape(db), expectedShape(driver, MIGRATIONS, SCHEMA_VERSION))).toEqual(
      [],
    );
    db.close();
  });

  it('run only the pending ones, in one transaction, keeping the data', async () => {
    const filename = join(dir, 'upgrade.db');
    const store = openStore({ filename });
    await loopEngine(store, { iterations: 3 }).run('loop', { threadId: 'old' });
    const before = await store.load('old');
    store.close();

    const db = openDatabase({
      driver,
      filename,
      busyTimeoutMs: 1000,
      synchronous: 'full',
      verify: true,
      migrations: [...MIGRATIONS, next],
    });
    expect(readVersion(db)).toBe(NEXT);
    expect(columns(db, 'threads')).toContain('note');
    expect(db.prepare('SELECT count(*) AS n FROM labels').get()).toEqual({ n: 0 });
    expect(db.column('SELECT thread_id FROM threads').all()).toEqual(['old']);
    expect(
      compareShapes(readShape(db), expectedShape(driver, [...MIGRATIONS, next], NEXT)),
    ).toEqual([]);
    db.close();
    // That version is newer than this package: the real store now refuses the file.
    expect(() => openStore({ filename })).toThrow(
      expect.objectContaining({
        code: 'STORE_TOO_NEW',
        details: expect.objectContaining({ found: NEXT }),
      }),
    );
    expect(before?.conversation.messages.length).toBeGreaterThan(0);
  });

  /** A file with one stored thread, taken back to exactly what `version` made. */
  async function fileAt(version: 1 | 2, name: string) {
    const filename = join(dir, name);
    const store = openStore({ filename });
    await loopEngine(store, { iterations: 3 }).run('loop', { threadId: 'old' });
    // Two waiting threads: a sleep, and a pause with a deadline.
    const waits = new SkeinEngine({ store, now: () => T0 });
    waits.registerWorkflow(
      new WorkflowBuilder('waits', '1')
        .start()
        .sleep('nap', { duration: 60_000 })
        .end('end')
        .chain('start', 'nap', 'end')
        .build(),
    );
    waits.registerWorkflow(
      new WorkflowBuilder('asks', '1')
        .start()
        .userInteraction('ask', { prompt: '?', timeout: 90_000 })
        .end('end')
        .chain('start', 'ask', 'end')
        .build(),
    );
    waits.registerWorkflow(
      new WorkflowBuilder('pays', '1')
        .start()
        .waitForEvent('paid', { event: 'payment', variable: 'paid' })
        .end('end')
        .chain('start', 'paid', 'end')
        .build(),
    );
    await waits.run('waits', { threadId: 'sleeper' });
    await waits.run('asks', { threadId: 'asker' });
    await waits.run('pays', { threadId: 'payer' });
    waits.close();
    const before = await store.load('old');
    store.close();
    // The shape check on opening would refuse anything but what that version made.
    const raw = openRaw(filename);
    raw.exec(`DROP TABLE inbox;
      ALTER TABLE threads DROP COLUMN inbox_taken;
      DROP TABLE attachment_uses;
      DROP TABLE attachments;
      DROP INDEX threads_by_base;
      DROP INDEX threads_by_wake;
      DROP INDEX threads_by_event;
      ALTER TABLE threads DROP COLUMN wake_at;
      ALTER TABLE threads DROP COLUMN waits_for;
      ALTER TABLE threads DROP COLUMN base;
      ALTER TABLE threads DROP COLUMN base_messages;
      ALTER TABLE threads DROP COLUMN base_log;`);
    if (version === 1) raw.exec('DROP TABLE leases');
    raw.exec(`PRAGMA user_version = ${version}`);
    expect(compareShapes(readShape(raw), expectedShape(driver, MIGRATIONS, version))).toEqual([]);
    raw.close();
    return { filename, before };
  }

  function expectLatest(filename: string) {
    const db = openRaw(filename, { readonly: true });
    expect(readVersion(db)).toBe(SCHEMA_VERSION);
    expect(compareShapes(readShape(db), expectedShape(driver, MIGRATIONS, SCHEMA_VERSION))).toEqual(
      [],
    );
    db.close();
  }

  it('take a version 1 file, as the first release wrote it, to the latest with leases', async () => {
    const { filename, before } = await fileAt(1, 'from-v1.db');
    const reopened = openStore({ filename });
    expect(await reopened.load('old')).toEqual(before);
    expect(await reopened.acquireLease('old', { owner: 'a', expiresAt: 10, now: 0 })).toBe(true);
    expect(await reopened.acquireLease('old', { owner: 'b', expiresAt: 10, now: 5 })).toBe(false);
    reopened.close();
    expectLatest(filename);
  });

  it('take a version 2 file to version 3, whose threads can then be forked', async () => {
    const { filename, before } = await fileAt(2, 'from-v2.db');
    const reopened = openStore({ filename });
    expect(await reopened.load('old')).toEqual(before);
    // The wakes of threads that waited before the upgrade are read from their states.
    expect(await reopened.listWakes()).toEqual([
      { threadId: 'sleeper', at: T0 + 60_000 },
      { threadId: 'asker', at: T0 + 90_000 },
    ]);
    expect(await reopened.listWaiting('payment')).toEqual(['payer']);
    const engine = loopEngine(reopened, { iterations: 3 });
    const { thread } = await engine.fork('old', { threadId: 'fork' });
    expect((await reopened.load('fork'))!.conversation.messages).toEqual(
      before!.conversation.messages,
    );
    expect(thread.state.forkedFrom).toEqual({
      threadId: 'old',
      checkpointId: before!.checkpoint.id,
    });
    reopened.close();
    expectLatest(filename);
  });

  it('roll back entirely when one fails, leaving the version where it was', () => {
    const db = openRaw(':memory:');
    applyMigrations(db, MIGRATIONS, options);
    expect(() => applyMigrations(db, [...MIGRATIONS, broken], options)).toThrow(/no_such_table/);
    expect(readVersion(db)).toBe(SCHEMA_VERSION);
    expect(readShape(db).has('table labels')).toBe(false);
    db.close();
  });

  it('refuse to downgrade: a newer database is STORE_TOO_NEW and keeps its version', () => {
    const db = openRaw(':memory:');
    applyMigrations(db, [...MIGRATIONS, next], options);
    expect(() => applyMigrations(db, MIGRATIONS, options)).toThrow(
      expect.objectContaining({
        code: 'STORE_TOO_NEW',
        details: expect.objectContaining({ found: NEXT, supported: SCHEMA_VERSION }),
      }),
    );
    expect(readVersion(db)).toBe(NEXT);
    db.close();
  });

  it('refuse a versioned database that is not marked as Skein', () => {
    const db = openRaw(':memory:');
    db.exec('PRAGMA user_version = 1');
    expect(() => applyMigrations(db, [...MIGRATIONS, next], options)).toThrow(
      expect.objectContaining({ code: 'STORE_FOREIGN' }),
    );
    db.close();
  });
});

describe('schema shapes', () => {
  it('come from running the migrations, per version', () => {
    expect(expectedShape(driver, MIGRATIONS, 0).size).toBe(0);
    const v1 = expectedShape(driver, MIGRATIONS, 1);
    expect([...v1.keys()].sort()).toEqual([
      'index checkpoints_by_name',
      'index checkpoints_by_thread',
      'table checkpoints',
      'table log_entries',
      'table messages',
      'table threads',
    ]);
    expect([...expectedShape(driver, MIGRATIONS, 2).keys()].filter((key) => !v1.has(key))).toEqual([
      'table leases',
    ]);
    expect(expectedShape(driver, [...MIGRATIONS, next], NEXT).get('table threads')).toMatch(
      /note TEXT/,
    );
  });

  it('report missing, unexpected and different objects', () => {
    const expected = new Map([
      ['table a', 'CREATE TABLE a (x)'],
      ['table b', 'CREATE TABLE b (y)'],
    ]);
    const found = new Map([
      ['table a', 'CREATE TABLE a (x, z)'],
      ['table c', 'CREATE TABLE c (w)'],
    ]);
    expect(compareShapes(found, expected)).toEqual([
      'table a is "CREATE TABLE a (x, z)", expected "CREATE TABLE a (x)"',
      'table b is missing',
      'unexpected table c',
    ]);
  });
});
