import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { makeCheckpoint } from './make-checkpoint.js';

/**
 * Saves checkpoints of `threads` threads (`t0`, `t1`, …) at once, group after group, until the
 * process is killed: the body of a child process a store's crash test kills mid-group. Each
 * checkpoint adds two messages, so a half-written one shows as rows its head does not cover.
 * Calls `saved` with each checkpoint id as its save resolves, `grouped` after each whole group.
 */
export async function saveGroupsUntilKilled(
  store: CheckpointStore,
  threads: number,
  on: { saved(id: string): void; grouped?(sequence: number): void },
): Promise<never> {
  for (let sequence = 1; ; sequence++) {
    const messages = [
      { role: 'user', content: `question ${sequence}` },
      { role: 'assistant', content: `answer ${sequence}` },
    ];
    await Promise.all(
      Array.from({ length: threads }, (_, i) => {
        const checkpoint = makeCheckpoint(
          `t${i}`,
          sequence,
          { messages: (sequence - 1) * 2, log: 0 },
          messages,
        );
        return store.save(checkpoint).then(() => on.saved(checkpoint.id));
      }),
    );
    on.grouped?.(sequence);
  }
}
