import {
  type ConversationCursor,
  type ConversationDelta,
  ConversationManager,
  type ConversationManagerOptions,
} from '@skein/conversation';
import type { LLMMessage, TokenUsage } from '@skein/spec';
import type { Tool } from '../tools/tool.js';

/**
 * What a new child thread's conversation holds before anything reads or writes it: its first
 * batch, the tool description and the messages it was forked with. Every branch a node forks from
 * one view with the same tools starts with the same, so it is worked out once; each branch then
 * builds its own manager from it only when something uses the conversation (a branch of VARIABLE
 * or TOOL nodes never does). Nothing in it depends on the thread: the log holds no ids or times.
 * @internal
 */
export interface ConversationSeed {
  /** The initial tools it was made with: it serves only threads with the very same tools. */
  readonly tools: readonly Tool[];
  /**
   * All of it, from the start: what a new thread's first checkpoint stores, and the snapshot the
   * thread's manager is restored from.
   */
  readonly delta: ConversationDelta;
  /** Its `messages` is where a forked branch's own messages begin. */
  readonly cursor: ConversationCursor;
  readonly usage: TokenUsage;
}

/** Whether `a` and `b` hold the same tool objects in the same order. */
export function sameTools(a: readonly Tool[], b: readonly Tool[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The seed of a conversation made as `ThreadBuilder` makes a new thread's: a first batch with the
 * initial tools, then `messages`. `options` must not carry an observer (nobody hears a seed).
 */
export function makeSeed(
  tools: readonly Tool[],
  messages: readonly LLMMessage[] | undefined,
  options: ConversationManagerOptions,
): ConversationSeed {
  const conversation = new ConversationManager(options);
  conversation.startNewBatchWithInitialTools(0);
  if (messages) for (let i = 0; i < messages.length; i++) conversation.addMessage(messages[i]!);
  // `deltaSince` gives arrays of its own: frozen as they are, since every branch shares them.
  const all = conversation.deltaSince(Object.freeze({ messages: 0, log: 0 }));
  Object.freeze(all.messages);
  Object.freeze(all.log);
  return Object.freeze({
    tools,
    delta: Object.freeze(all),
    cursor: conversation.cursor(),
    usage: Object.freeze({ ...conversation.getTotalUsage() }),
  });
}
