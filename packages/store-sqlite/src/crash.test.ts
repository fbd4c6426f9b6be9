import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, withRaw } from './test-support/driver.js';
import { loopEngine, loopSteps } from './test-support/loop-workflow.js';
import { spawnLoopChild } from './test-support/spawn-loop-child.js';

const ROUNDS = 150;
const SLOW_EVERY = 25;
const THREAD = 'long-run';

function rowCounts(filename: string): { messages: number; log: number; checkpoints: number } {
  return withRaw(
    filename,
    (db) => {
      const count = (table: string) =>
        db.column<[], number>(`SELECT count(*) FROM ${table}`).get()!;
      return {
        messages: count('messages'),
        log: count('log_entries'),
        checkpoints: count('checkpoints'),
      };
    },
    { readonly: true },
  );
}

/** The lease a thread's last runner left in the file. */
function leaseOf(filename: string, threadId: string): { owner: string; expires_at: number } {
  return withRaw(
    filename,
    (db) =>
      db
        .prepare<[string], { owner: string; expires_at: number }>(
          'SELECT owner, expires_at FROM leases WHERE thread_id = ?',
        )
        .get(threadId)!,
    { readonly: true },
  );
}

describe('a process killed with SIGKILL in the middle of a node', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-sqlite-crash-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves a thread that a new process resumes to the same end as an uninterrupted run', async () => {
    const filename = join(dir, 'crash.db');
    // The child runs 150 rounds (602 nodes); every 25th model call takes 30 s.
    const child = spawnLoopChild([filename, THREAD, ROUNDS, 30_000, SLOW_EVERY]);
    const monitor = openStore({ filename });
    let killedAt: number | undefined;
    let seenBeforeKill = 0;
    for await (const line of child.lines) {
      const round = /^slow (\d+)$/.exec(line)?.[1];
      if (round === undefined) continue;
      // The database (read here by another process) shows checkpoints: kill the child while
      // this slow model call is still waiting.
      seenBeforeKill = (await monitor.list(THREAD)).length;
      if (seenBeforeKill >= 50) {
        killedAt = Number(round);
        child.process.kill('SIGKILL');
        break;
      }
    }
    const exit = await child.exited;
    monitor.close();
    expect(exit.signal, exit.stderr).toBe('SIGKILL');
    // The first slow call (round 25) comes after 98 checkpoints.
    expect(killedAt).toBe(SLOW_EVERY);

    // A new store over the file, as the next process opens it.
    const store = openStore({ filename });
    const infos = await store.list(THREAD);
    expect(infos.length).toBeGreaterThanOrEqual(seenBeforeKill);
    const last = infos.at(-1)!;
    // The last checkpoint is the one before the slow node: it was running when the child died.
    expect(last).toMatchObject({ status: 'RUNNING', currentNodeId: 'think' });
    const stored = (await store.load(THREAD))!;
    const before = stored.conversation.messages;
    expect(before.at(-1)).toMatchObject({ role: 'user', content: `round ${killedAt}` });
    expect(rowCounts(filename).messages).toBe(before.length);

    const engine = loopEngine(store, { iterations: ROUNDS });
    // The dead process's lease outlives it: the thread is the next process's only once that
    // lease has run out, at the time the file holds.
    const { expires_at: expiry } = leaseOf(filename, THREAD);
    const takeOver = (now: number) =>
      store.acquireLease(THREAD, { owner: engine.owner, expiresAt: now + 60_000, now });
    expect(await takeOver(expiry - 1)).toBe(false);
    expect(await takeOver(expiry)).toBe(true);
    const thread = await engine.loadThread(THREAD);
    const { result: resumed } = await engine.run(thread, { maxSteps: loopSteps(ROUNDS) });
    expect(resumed.status).toBe('COMPLETED');

    // The same workflow, uninterrupted, in this process on another file.
    const referenceStore = openStore({ filename: join(dir, 'reference.db') });
    const reference = await loopEngine(referenceStore, { iterations: ROUNDS }).run('loop', {
      threadId: THREAD,
      maxSteps: loopSteps(ROUNDS),
    });
    expect(reference.result.status).toBe('COMPLETED');
    expect(resumed.output).toEqual(reference.result.output);
    expect(resumed.output).toBe(`square of ${ROUNDS} is ${ROUNDS * ROUNDS}`);
    expect(resumed.totalSteps).toBe(reference.result.totalSteps);

    store.close();
    const reopened = openStore({ filename });
    const after = (await reopened.load(THREAD))!;
    const expected = (await referenceStore.load(THREAD))!;
    // Every message stored before the kill is still there, in place.
    expect(after.conversation.messages.slice(0, before.length)).toEqual(before);
    expect(after.conversation.messages).toEqual(expected.conversation.messages);
    expect(after.conversation.log).toEqual(expected.conversation.log);
    expect(after.state.variables).toEqual(expected.state.variables);
    expect(after.state.status).toBe('COMPLETED');
    const sequences = (await reopened.list(THREAD)).map((i) => i.sequence);
    expect(sequences).toEqual(sequences.map((_, i) => i + 1));
    expect(sequences).toHaveLength(loopSteps(ROUNDS));
    // Incremental to the end: one row per message, also across the crash.
    expect(rowCounts(filename).messages).toBe(after.conversation.messages.length);
    expect(rowCounts(filename).log).toBe(after.conversation.log.length);
    reopened.close();
    referenceStore.close();
  }, 60_000);
});
