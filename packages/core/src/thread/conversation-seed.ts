import {
  type ConversationCursor,
  type ConversationDelta,
  ConversationManager,
  type ConversationManagerOptions,
  type ConversationSnapshot,
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
  readonly snapshot: ConversationSnapshot;
  /** A new thread's first checkpoint stores all of it. */
  readonly delta: ConversationDelta;
  readonly cursor: ConversationCursor;
  /** Stored messages: where a forked branch's own messages begin. */
  readonly messageCount: number;
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
  const start: ConversationCursor = Object.freeze({ messages: 0, log: 0 });
  const all = conversation.deltaSince(start);
  const stored = Object.freeze(all.messages.slice());
  const log = Object.freeze(all.log.slice());
  return Object.freeze({
    tools,
    snapshot: Object.freeze({ version: all.version, messages: stored, log }),
    delta: Object.freeze({ version: all.version, from: start, messages: stored, log }),
    cursor: conversation.cursor(),
    messageCount: conversation.getTotalMessageCount(),
    usage: Object.freeze({ ...conversation.getTotalUsage() }),
  });
}
