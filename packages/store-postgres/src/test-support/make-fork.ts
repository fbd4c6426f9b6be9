import type { Checkpoint } from '@skein/core/store-kit';
import type { ForkOrigin } from '@skein/spec';
import { makeCheckpoint } from './make-checkpoint.js';

/**
 * A hand-made first checkpoint of a fork: thread `threadId` continues `forkOf`'s conversation,
 * which ended at `from`, with `messages` and `log` entries of its own.
 */
export function makeFork(
  threadId: string,
  forkOf: ForkOrigin,
  from: { messages: number; log: number },
  messages: unknown[] = [],
  log: unknown[] = [],
): Checkpoint {
  const first = makeCheckpoint(threadId, 1, from, messages);
  return {
    ...first,
    forkOf,
    conversation: { ...first.conversation, log: log as Checkpoint['conversation']['log'] },
  };
}
