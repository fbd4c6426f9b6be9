import { UI_MESSAGE_ID_KEY } from '../stored-chat.js';
import type { ChatWorkerEvent } from './worker-thread-run.js';

/**
 * How a worker run a stream follows stands after an event: it goes on, it ended, or (for a
 * message that waits) the thread came to rest without taking the message, which stays posted.
 */
export type RunEnd = 'go-on' | 'ended' | 'posted';

/** Decides, event by event, where a stream that follows a worker's thread ends. */
export type EndsAt = (event: ChatWorkerEvent) => RunEnd;

const ENDS = new Set(['thread:completed', 'thread:failed', 'thread:paused', 'thread:cancelled']);

/** A stream of a run that the POST started itself: it ends with the thread's first end. */
export const firstEnd: EndsAt = (event) => (ENDS.has(event.event) ? 'ended' : 'go-on');

/**
 * The end of a stream whose message was sent while the thread was busy (decision 0036): the
 * answer is the turn that takes the message, so the ends of turns before it are passed by, and
 * the first end after the message joined (its `message:added`, which keeps the message's UI id)
 * ends the stream. Order, not time: a worker adds the message before the model call that answers
 * it. A turn that ends by an interrupt (`THREAD_INTERRUPTED`) is followed by the one that takes
 * the message; a thread that pauses or waits first keeps the message posted for the turn after
 * its wake or approvals; a thread cancelled otherwise (stopped) ends the stream.
 */
export function endOfAnswer(uiMessageId: string): EndsAt {
  let joined = false;
  return (event) => {
    const data = event.data as {
      message?: { role?: unknown; metadata?: Record<string, unknown> };
      error?: { code?: unknown };
    };
    if (joined) return ENDS.has(event.event) ? 'ended' : 'go-on';
    if (event.event === 'message:added' && data.message?.role === 'user')
      joined = data.message.metadata?.[UI_MESSAGE_ID_KEY] === uiMessageId;
    if (event.event === 'thread:paused') return 'posted';
    if (event.event === 'thread:cancelled' && data.error?.code !== 'THREAD_INTERRUPTED')
      return 'ended';
    return 'go-on';
  };
}
