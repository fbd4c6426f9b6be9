import { storedContent } from '@skein/conversation';
import {
  type CheckContentOptions,
  InvalidArgumentError,
  type LLMMessage,
  type MessageContent,
} from '@skein/spec';
import { ThreadError } from '../errors/thread-error.js';
import { handleClearOperation } from '../nodes/context-processor-node.js';
import { pauseKindOf } from '../pauses/pause-kinds.js';
import { refuseTripped, waitingFor } from '../run/call-checks.js';
import type { ThreadContext } from '../thread/thread-context.js';

/** A message sent to a thread: its text, or a user message (text or parts) with metadata. */
export type SentMessage =
  | string
  | {
      readonly role?: 'user';
      readonly content: MessageContent;
      readonly metadata?: Readonly<Record<string, unknown>>;
    };

/**
 * The user message `sent` stands for; anything else is refused before the thread is touched.
 * Parts are checked here (`InvalidArgumentError` naming the part, `message.content[1]`) and
 * their inline bytes turned into base64, so a queued message is already what a store keeps.
 */
export function userMessage(
  sent: SentMessage,
  where = 'message',
  options: CheckContentOptions = {},
): LLMMessage {
  if (typeof sent === 'string') return { role: 'user', content: sent };
  if (typeof sent !== 'object' || sent === null)
    throw new InvalidArgumentError(where, `${where} must be a string or { content: string }`);
  if (sent.role !== undefined && sent.role !== 'user')
    throw new InvalidArgumentError(
      `${where}.role`,
      `${where}.role must be "user" (got ${JSON.stringify(sent.role)}): a thread is sent user messages`,
    );
  if (typeof sent.content !== 'string' && !Array.isArray(sent.content))
    throw new InvalidArgumentError(
      `${where}.content`,
      `${where}.content must be a string or an array of parts`,
    );
  return {
    role: 'user',
    content: storedContent(sent.content, `${where}.content`, options),
    ...(sent.metadata === undefined ? {} : { metadata: sent.metadata }),
  };
}

/** How a stored thread takes the next message: as the answer it waits for, or as a new turn. */
export type NextTurn =
  | { readonly kind: 'answer'; readonly input: MessageContent }
  | { readonly kind: 'run' };

/**
 * Why `thread` cannot take a message as its next turn now, or undefined when it can (it ended,
 * failed, was cancelled, never ran, or waits for a person's answer). A message sent to it then
 * waits in its inbox, unless sent with `ifBusy: 'reject'` (or `'interrupt'`, which ends a wait
 * on time or an event, and answers pending tool approvals as not approved).
 */
export function busyReason(thread: ThreadContext): string | undefined {
  const { status } = thread;
  const pending = thread.state.pending;
  if (status === 'RUNNING') return 'a turn runs (here or in another process)';
  if (status === 'WAITING') return waitingFor(thread);
  if (status !== 'PAUSED' || takesMessage(thread)) return undefined;
  return pending
    ? pauseKindOf(pending).waitingFor(pending)
    : 'it waits for its branches: answer them with resume(thread, { branch, input })';
}

/**
 * Gives `thread` the next messages. A thread waiting for a person's answer takes the first as
 * that answer (the others wait for the next turn: `taken` is 1); a thread that ended, failed,
 * was cancelled or never ran takes them all and runs again from its START with its
 * conversation. With `clear`, the conversation is cleared first (CLEAR through
 * `handleClearOperation`: visible system messages and the tool description stay). A busy thread
 * (`busyReason`) is refused with `THREAD_STATE`, unless `endWait`: an interrupt ends a wait on
 * time or an event and the thread runs from its START.
 */
export function nextTurn(
  thread: ThreadContext,
  messages: readonly LLMMessage[],
  clear = false,
  endWait = false,
): { readonly turn: NextTurn; readonly taken: number } {
  const { status, threadId } = thread;
  if (takesMessage(thread)) {
    if (clear) handleClearOperation(thread.conversation);
    return { turn: { kind: 'answer', input: messages[0]!.content }, taken: 1 };
  }
  const busy = busyReason(thread);
  if (busy !== undefined && !(endWait && endsByInterrupt(thread)))
    throw ThreadError.state(threadId, status, busy);
  // A trip ends the turn; only one that said so ends the chat.
  if (thread.state.error?.guardrail?.endsChat) refuseTripped(thread);
  if (status !== 'PENDING') thread.dispatch({ type: 'reopened', at: thread.workflow.startNodeId });
  // A new topic: earlier turns leave the view (they stay stored), the tools stay described.
  if (clear) handleClearOperation(thread.conversation);
  for (const message of messages) thread.conversation.addMessage(message);
  return { turn: { kind: 'run' }, taken: messages.length };
}

/** A wait an interrupt may end: the thread's own SLEEP or WAIT_FOR_EVENT (not its branches'). */
export function endsByInterrupt(thread: ThreadContext): boolean {
  const pending = thread.state.pending;
  return (
    thread.status === 'WAITING' &&
    pending !== undefined &&
    pauseKindOf(pending).interrupt(pending, '') === 'end'
  );
}

/** A thread PAUSED for an answer a chat message gives (the first message of a turn). */
export function takesMessage(thread: ThreadContext): boolean {
  const pending = thread.state.pending;
  return (
    thread.status === 'PAUSED' &&
    pending !== undefined &&
    !pending.answer &&
    pauseKindOf(pending).takesMessage
  );
}
