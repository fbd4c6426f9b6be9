import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { startTestPostgres, type TestPostgres } from '@skein/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixtureEngine, runFixtureThread } from '../test-support/fixture-thread.js';
import { tempStore } from '../test-support/temp-store.js';
import { openStore } from './open-store.js';

describe('openStore', () => {
  it('opens a SQLite file and reads its threads', async () => {
    const temp = tempStore();
    try {
      await runFixtureThread(createFixtureEngine(temp.store), 'a');
      const opened = await openStore(temp.filename);
      expect((await opened.store.listThreads()).map((t) => t.threadId)).toEqual(['a']);
      await opened.close();
    } finally {
      temp.dispose();
    }
  });

  it('refuses an existing file that is not a Skein store (an empty one too) and keeps it as it was', async () => {
    const temp = tempStore();
    try {
      for (const [name, content] of [
        ['empty.db', ''],
        ['text.db', 'hello'],
        ['header-only.db', 'SQLite format 3\0'.padEnd(100, '\0')],
      ] as const) {
        const path = join(temp.dir, name);
        writeFileSync(path, content);
        await expect(openStore(path)).rejects.toMatchObject({
          code: 'NOT_A_STORE',
          location: path,
        });
        expect(readFileSync(path, 'latin1')).toBe(content);
      }
      await expect(openStore(temp.dir)).rejects.toMatchObject({ code: 'NOT_A_STORE' });
    } finally {
      temp.dispose();
    }
  });

  it('refuses what no opener knows, saying what it can open', async () => {
    await expect(openStore('redis://127.0.0.1/0')).rejects.toMatchObject({
      code: 'UNSUPPORTED_STORE',
      supported: [
        'a PostgreSQL URL (postgres://user@host/db[?schema=skein])',
        'a SQLite file path (.skein/threads.db)',
      ],
    });
  });

  describe('a PostgreSQL URL', () => {
    let pg: TestPostgres;
    beforeAll(async () => {
      pg = await startTestPostgres();
    }, 120_000);
    afterAll(async () => pg?.stop(), 60_000);

    it('opens the store in the schema the URL names and reads its threads', async () => {
      const store = new PostgresCheckpointStore({
        connectionString: pg.connectionString,
        schema: 'inspected',
      });
      await runFixtureThread(createFixtureEngine(store as never), 'pg-thread');
      await store.close();
      const opened = await openStore(`${pg.connectionString}?schema=inspected`);
      expect((await opened.store.listThreads()).map((t) => t.threadId)).toEqual(['pg-thread']);
      const stored = await opened.store.load('pg-thread');
      expect(stored?.state.threadId).toBe('pg-thread');
      await opened.close();
    });

    it('fails at once when the server cannot be reached', async () => {
      await expect(openStore('postgres://nobody@127.0.0.1:1/none')).rejects.toMatchObject({
        code: 'STORE_DATABASE',
      });
    });
  });
});
