import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';
import { loopEngine, loopSteps } from './test-support/loop-workflow.js';
import { spawnLoopChild } from './test-support/spawn-loop-child.js';

const ROUNDS = 80;

describe('several processes on one database file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-sqlite-processes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('each run their own thread to the end, and every thread is stored whole', async () => {
    const filename = join(dir, 'shared.db');
    // All three open (and race to create) the file, then start writing together once the go
    // file exists; each model call takes 2 ms, so their runs overlap for their whole length.
    const go = join(dir, 'go');
    const children = ['w1', 'w2', 'w3'].map((threadId) =>
      spawnLoopChild([filename, threadId, ROUNDS, 2, 1, go]),
    );
    await Promise.all(
      children.map(async (child) => {
        for await (const line of child.lines) if (line === 'ready') return;
      }),
    );
    writeFileSync(go, '');
    const exits = await Promise.all(children.map((c) => c.exited));
    for (const exit of exits) expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });

    const reference = await loopEngine(new SqliteCheckpointStore({ filename: ':memory:' }), {
      iterations: ROUNDS,
    }).run('loop', { threadId: 'ref', maxSteps: loopSteps(ROUNDS) });
    const expected = JSON.parse(JSON.stringify(reference.thread.conversation.getAllMessages()));
    const store = new SqliteCheckpointStore({ filename });
    const threads = await store.listThreads();
    expect(threads.map((t) => t.threadId).sort()).toEqual(['w1', 'w2', 'w3']);
    for (const info of threads) {
      expect(info).toMatchObject({ status: 'COMPLETED', checkpoints: loopSteps(ROUNDS) });
      const loaded = (await store.load(info.threadId))!;
      expect(loaded.conversation.messages).toEqual(expected);
      expect(loaded.state.output).toEqual(reference.result.output);
    }
    store.close();
    // The writers really interleaved: checkpoint rows of different threads alternate in the file.
    const db = new Database(filename, { readonly: true });
    const order = db
      .prepare<[], number>('SELECT thread FROM checkpoints ORDER BY id')
      .pluck()
      .all();
    db.close();
    const switches = order.filter((thread, i) => i > 0 && thread !== order[i - 1]).length;
    expect(switches).toBeGreaterThan(10);
  }, 60_000);
});
