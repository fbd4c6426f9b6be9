import type { ThreadEvent, ThreadEventListener } from '@skein/core';
import { UI_MESSAGE_ID_KEY } from './stored-chat.js';

/**
 * Passes a thread's events on from the moment the user message `uiMessageId` joins the thread
 * (its `message:added`), and drops the ones before: a message sent while a turn runs hears that
 * turn too (`send`'s `onEvent` follows the thread from the call), but its answer is the turn that
 * takes it (or, steered, the rest of the running one). Order, not time: the message is added
 * before the run that answers it makes its first model call.
 *
 * Several waiting messages taken at once are answered together, after the last of them (the
 * stored chat shows the answer there too): a later user message joining before the next model
 * call hands the answer over, and `handOver` is called once for the earlier one. A message
 * steered into a running answer does not hand that answer over: its own stream shows the rest.
 */
export function messageGate(
  threadId: string,
  uiMessageId: string,
  listener: ThreadEventListener,
  handOver: () => void,
): ThreadEventListener {
  let state: 'waiting' | 'joined' | 'answering' | 'handed-over' = 'waiting';
  return (event: ThreadEvent) => {
    if (state === 'handed-over') return;
    if (event.threadId !== threadId) {
      if (state !== 'waiting') listener(event);
      return;
    }
    if (event.type === 'message:added' && event.message.role === 'user') {
      if (state === 'waiting') {
        if (event.message.metadata?.[UI_MESSAGE_ID_KEY] === uiMessageId) state = 'joined';
      } else if (state === 'joined') {
        state = 'handed-over';
        handOver();
        return;
      }
    }
    if (state === 'waiting') return;
    if (event.type === 'llm:request') state = 'answering';
    listener(event);
  };
}
