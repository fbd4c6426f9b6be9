import type { CheckpointStore } from '@skein/spec';
import { UI_MESSAGE_ID_KEY } from '../stored-chat.js';

/**
 * What a worker run resolves with when its message stayed posted, as `startUIRun` reads it
 * (`result.posted`): the stream then ends with `data-skein-posted`. The worker does not say when
 * its send job posted (its job outcome stays on the worker), so the place is read from the
 * thread's inbox, and left out when the job has not posted it yet.
 */
export async function postedMessage(
  store: CheckpointStore,
  threadId: string,
  uiMessageId: string,
  status: 'RUNNING' | 'WAITING' | 'PAUSED',
): Promise<{ result: { status: string; posted: { seq?: number } } }> {
  const waiting = (await store.pendingMessages?.(threadId)) ?? [];
  const mine = waiting.find((p) => p.message.metadata?.[UI_MESSAGE_ID_KEY] === uiMessageId);
  return { result: { status, posted: mine ? { seq: mine.seq } : {} } };
}
