import { storedContent } from '@skein/conversation';
import {
  type CheckContentOptions,
  InvalidArgumentError,
  type LLMMessage,
  type MessageContent,
} from '@skein/spec';
import { ThreadError } from '../errors/thread-error.js';
import { handleClearOperation } from '../nodes/context-processor-node.js';
import { waitingFor } from '../run/call-checks.js';
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
 * Gives `thread` the next messages, or says why it cannot take them. A thread waiting for a
 * person's answer takes the first as that answer (the others wait for the next turn: `taken` is
 * 1); a thread that ended, failed, was cancelled or never ran takes them all and runs again from
 * its START with its conversation; one waiting for tool approvals or for its branches refuses
 * (answer it with `resume`), and so does one WAITING on time or an event (the engine wakes it). With `clear`, the conversation is cleared first (CLEAR through
 * `handleClearOperation`: visible system messages and the tool description stay).
 */
export function nextTurn(
  thread: ThreadContext,
  messages: readonly LLMMessage[],
  clear = false,
): { readonly turn: NextTurn; readonly taken: number } {
  const { status, threadId } = thread;
  const pending = thread.state.pending;
  if (status === 'PAUSED' && pending?.kind === 'user-input' && !pending.answer) {
    if (clear) handleClearOperation(thread.conversation);
    return { turn: { kind: 'answer', input: messages[0]!.content }, taken: 1 };
  }
  if (status === 'PAUSED')
    throw ThreadError.state(
      threadId,
      status,
      pending?.kind === 'tool-approval'
        ? 'it waits for tool approvals: answer them with resume(thread, { approvals })'
        : 'it waits for its branches: answer them with resume(thread, { branch, input })',
    );
  // A message must not undo a wait on time or an event (its wake time, its webhook): refused
  // until the thread is woken, until a policy for busy and waiting threads says otherwise.
  if (status === 'WAITING') throw ThreadError.state(threadId, status, waitingFor(thread));
  if (status === 'RUNNING')
    throw ThreadError.state(
      threadId,
      status,
      'another process runs it (or its process died: recover() takes it over)',
    );
  if (status !== 'PENDING') thread.dispatch({ type: 'reopened', at: thread.workflow.startNodeId });
  // A new topic: earlier turns leave the view (they stay stored), the tools stay described.
  if (clear) handleClearOperation(thread.conversation);
  for (const message of messages) thread.conversation.addMessage(message);
  return { turn: { kind: 'run' }, taken: messages.length };
}
