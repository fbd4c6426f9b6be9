import type { LLMMessage, Role } from '@skein/spec';
import type { TokenCounter } from './token-counter.js';

/** Keep the first or last `count` messages (system messages and the tool description stay). */
export interface TruncateByCountOperation {
  readonly type: 'TRUNCATE';
  readonly keep: 'first' | 'last';
  readonly count: number;
  /** Keep every system message whatever the count (default true). */
  readonly preserveSystem?: boolean;
}

/** Keep the most recent messages that fit `maxTokens` together with the kept system messages. */
export interface TruncateByTokensOperation {
  readonly type: 'TRUNCATE';
  readonly maxTokens: number;
  readonly preserveSystem?: boolean;
  /** Overrides the manager's counter for this operation. */
  readonly tokenCounter?: TokenCounter;
}

export type TruncateOperation = TruncateByCountOperation | TruncateByTokensOperation;

/** Put a new message at a visible position `0..visibleCount`. */
export interface InsertOperation {
  readonly type: 'INSERT';
  readonly position: number;
  readonly message: LLMMessage;
}

/** Show a new message in place of the visible one at `position`; the old one stays stored. */
export interface ReplaceOperation {
  readonly type: 'REPLACE';
  readonly position: number;
  readonly message: LLMMessage;
}

/** Start a fresh batch, optionally keeping the system messages; ends with the tool description. */
export interface ClearOperation {
  readonly type: 'CLEAR';
  /** Default true. */
  readonly keepSystemMessage?: boolean;
}

/**
 * Keep (or, with `mode: 'remove'`, drop) the messages matching every given criterion. A tool
 * exchange stays only if all of its messages stay.
 */
export interface FilterOperation {
  readonly type: 'FILTER';
  readonly roles?: readonly Role[];
  /** Matches when every listed key of `metadata` equals the given value. */
  readonly metadata?: Readonly<Record<string, unknown>>;
  readonly predicate?: (message: LLMMessage, visibleIndex: number) => boolean;
  /** Default 'keep'. */
  readonly mode?: 'keep' | 'remove';
}

export type BatchManagementOperation =
  | {
      readonly type: 'BATCH_MANAGEMENT';
      readonly action: 'start';
      /** Visible position where the new batch starts (default: the end, an empty batch). */
      readonly boundary?: number;
      /** Default true: the new batch shows the initial tool description. */
      readonly withInitialTools?: boolean;
    }
  | { readonly type: 'BATCH_MANAGEMENT'; readonly action: 'rollback'; readonly batch: number };

/** Metadata `kind` of the message a SUMMARIZE stores: the summary of what the batch hides. */
export const SUMMARY_KIND = 'summary';

/**
 * Start a batch that shows the system messages, the tool description (once), `summary` as a
 * message marked `metadata.kind: 'summary'`, and the last `keepTurns` turns (a turn starts at a
 * user message, so a tool call and its result are kept or summarised together). What it hides
 * stays stored, and a rollback shows it again. The conversation has no model: the engine's
 * CONTEXT_PROCESSOR writes `summary` with one.
 */
export interface SummarizeOperation {
  readonly type: 'SUMMARIZE';
  readonly summary: string;
  /** The last turns shown after the summary, whole (default 0). */
  readonly keepTurns?: number;
  /** The summary message's role (default `user`). */
  readonly role?: 'user' | 'system';
}

export type ContextOperation =
  | TruncateOperation
  | InsertOperation
  | ReplaceOperation
  | ClearOperation
  | FilterOperation
  | SummarizeOperation
  | BatchManagementOperation;

export type ContextOperationType = ContextOperation['type'];

/** What an operation changed. Positions are storage positions (see `getAllMessages()`). */
export interface OperationResult {
  readonly type: ContextOperationType;
  /** The current batch after the operation. */
  readonly batch: number;
  readonly batchStarted: boolean;
  readonly visibleBefore: number;
  readonly visibleAfter: number;
  /** Stored messages that were visible before and are not now. */
  readonly removed: readonly number[];
  /** Stored messages that are visible now and were not before. */
  readonly added: readonly number[];
  /** Messages this operation appended to storage (a REPLACE/INSERT message, a tool description). */
  readonly stored: readonly number[];
}
