import { describe, expect, it } from 'vitest';
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

  it('refuses what no opener knows, saying what it can open', async () => {
    await expect(openStore('redis://127.0.0.1/0')).rejects.toMatchObject({
      code: 'UNSUPPORTED_STORE',
      supported: ['a SQLite file path (.skein/threads.db)'],
    });
  });
});
