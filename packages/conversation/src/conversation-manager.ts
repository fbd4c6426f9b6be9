import type { CheckContentOptions, LLMMessage, TokenUsage, ToolSpec } from '@skein/spec';
import {
  checkBatch,
  checkBoolean,
  checkBoundary,
  checkCount,
  checkCursor,
  checkFilter,
  checkIndices,
  checkOperation,
  checkOptions,
  checkSummarize,
  checkTruncate,
  checkUsage,
  unknownOperation,
} from './argument-checks.js';
import { type ContextOperation, type OperationResult, SUMMARY_KIND } from './context-operations.js';
import { ConversationEmitter } from './conversation-emitter.js';
import type { ConversationListeners, ConversationObserver } from './conversation-events.js';
import type { ConversationCursor } from './conversation-log.js';
import { ConversationState } from './conversation-state.js';
import { refuseForgedDescription } from './description-guard.js';
import { DescriptionKeeper } from './description-keeper.js';
import {
  filterList,
  isSummary,
  lastTurns,
  liveFrom,
  systemMessagesOf,
  truncateList,
} from './list-operations.js';
import { type BatchInfo, batchInfos, MessageIndex } from './message-index.js';
import { normalizeMessage } from './message-validation.js';
import { placeMessage } from './placed-message.js';
import {
  batchesAt,
  type ConversationDelta,
  type ConversationSnapshot,
  deltaOf,
  replaySnapshot,
  SNAPSHOT_VERSION,
} from './snapshot.js';
import { cachedTokenCounter, defaultTokenCounter, type TokenCounter } from './token-counter.js';
import {
  defaultFormatToolDescription,
  isToolDescription,
  type ToolDescriptionFormatter,
} from './tool-description.js';
import { totalUsage, type UsageStats, usageStats } from './usage-stats.js';
import { ViewWriter } from './view-writer.js';

export type { UsageStats } from './usage-stats.js';

export interface ConversationManagerOptions {
  /** The workflow's initial tools, read each time a view is built (not on `addMessage`). */
  readonly initialTools?: () => readonly ToolSpec[];
  readonly formatToolDescription?: ToolDescriptionFormatter;
  /** Counts tokens for TRUNCATE by budget. Default: an o200k_base estimate (`defaultTokenCounter`); exact: `o200kTokenCounter` from `@skein/conversation/tokenizer`. */
  readonly tokenCounter?: TokenCounter;
  /** Told of every event, before the listeners (an engine forwards a thread's events with it). */
  readonly observer?: ConversationObserver;
  /**
   * The most bytes one image, audio clip or file of a message added may hold (`checkContent`'s
   * option; default `DEFAULT_MAX_ATTACHMENT_BYTES`, 20 MiB). Messages restored from a snapshot
   * were taken before and are not measured again, so lowering it never locks a thread out.
   */
  readonly maxAttachmentBytes?: number;
}

const NO_TOOLS = (): readonly ToolSpec[] => [];
const NO_CURSOR: ConversationCursor = Object.freeze({ messages: 0, log: 0 });

/**
 * The conversation of one thread. Storage is append-only: every message ever added stays in
 * `getAllMessages()`. What the model sees (`getMessages()`) is the current batch's view, changed by
 * context operations and batches. Every method validates first and changes state only after, so a
 * rejected call leaves the conversation exactly as it was. In a batch started with initial tools,
 * every call that builds a view leaves exactly one description of the current initial tools.
 */
export class ConversationManager {
  readonly #state: ConversationState;
  /** What a message added is checked with (its attachments' size limit). */
  readonly #content: CheckContentOptions;
  /** The last cursor handed out; frozen, so it can be handed out again while nothing changes. */
  #cursor: ConversationCursor = NO_CURSOR;
  readonly #descriptions: DescriptionKeeper;
  readonly #tokenCounter: TokenCounter;
  // Tokens per stored position, counted once by the manager's counter (messages never change).
  // Made on first use: most conversations (a fan-out's branches) are never measured.
  #tokens: ((position: number) => number) | undefined;
  readonly #events: ConversationEmitter;
  readonly #writer: ViewWriter;
  #visibleCache: readonly LLMMessage[] | undefined;

  constructor(options: ConversationManagerOptions = {}, state = new ConversationState()) {
    checkOptions(options);
    this.#content =
      options.maxAttachmentBytes === undefined
        ? {}
        : { maxAttachmentBytes: options.maxAttachmentBytes };
    this.#state = state;
    this.#events = new ConversationEmitter(options.observer);
    this.#descriptions = new DescriptionKeeper(
      options.initialTools ?? NO_TOOLS,
      options.formatToolDescription ?? defaultFormatToolDescription,
      this.#lookup,
      state.messages,
    );
    this.#writer = new ViewWriter(state, this.#descriptions, this.#events, () => {
      this.#visibleCache = undefined;
    });
    this.#tokenCounter = options.tokenCounter ?? defaultTokenCounter;
  }

  #countTokens(): (position: number) => number {
    this.#tokens ??= cachedTokenCounter(this.#tokenCounter, this.#lookup);
    return this.#tokens;
  }

  /** Rebuilds a manager from `snapshot()` output (or `applyDeltas` of checkpoints). */
  static restore(
    snapshot: ConversationSnapshot | unknown,
    options: ConversationManagerOptions = {},
  ): ConversationManager {
    return new ConversationManager(options, replaySnapshot(snapshot));
  }

  // ---- events ---------------------------------------------------------------------------

  /** A listener that throws is reported through `error` (or console.error), never to the caller. */
  on<K extends keyof ConversationListeners>(event: K, listener: ConversationListeners[K]): this {
    this.#events.on(event, listener);
    return this;
  }

  off<K extends keyof ConversationListeners>(event: K, listener: ConversationListeners[K]): this {
    this.#events.off(event, listener);
    return this;
  }

  // ---- messages -------------------------------------------------------------------------

  /** Stores a message and shows it in the current batch. Returns its storage position. */
  addMessage(message: LLMMessage): number {
    const frozen = normalizeMessage(message, 'message', this.#content);
    refuseForgedDescription(frozen, 'message');
    const position = this.#state.append(frozen);
    this.#visibleCache = undefined;
    if (this.#events.has('message:added'))
      this.#events.emit('message:added', { message: frozen, position });
    return position;
  }

  /** What the model sees: the current batch's messages, in order (a frozen array). */
  getMessages(): readonly LLMMessage[] {
    if (!this.#visibleCache) {
      const { messages } = this.#state;
      this.#visibleCache = Object.freeze(this.#state.current.live.map((p) => messages[p]!));
    }
    return this.#visibleCache;
  }

  /** Every message ever stored, in storage order. */
  getAllMessages(): readonly LLMMessage[] {
    return Object.freeze(this.#state.messages.slice());
  }

  /** The stored message at `position`. */
  getStoredMessage(position: number): LLMMessage | undefined {
    return this.#state.messages[position];
  }

  /** Tokens of the visible messages, by this conversation's counter (cached per stored message). */
  countVisibleTokens(): number {
    let total = 0;
    const tokens = this.#countTokens();
    for (const position of this.#live()) total += tokens(position);
    return total;
  }

  /** Tokens of one message by this conversation's counter (the `tokenCounter` option). */
  countTokens(message: LLMMessage): number {
    return this.#tokenCounter(message);
  }

  getMessageCount(): number {
    return this.#state.current.live.length;
  }

  getTotalMessageCount(): number {
    return this.#state.messages.length;
  }

  // ---- batches --------------------------------------------------------------------------

  get currentBatch(): number {
    return this.#state.batches.length - 1;
  }

  listBatches(): BatchInfo[] {
    return batchInfos(this.#state.batches);
  }

  /**
   * Starts a batch showing the visible messages stored at or after `boundary`, a storage position
   * `0..getTotalMessageCount()` (default: the end, so the batch starts empty).
   */
  startNewBatch(boundary?: number): number {
    this.#startQuietly(boundary, false);
    return this.currentBatch;
  }

  /**
   * Like `startNewBatch`, with exactly one description of the current initial tools (none when
   * there are none), whatever the previous view held.
   */
  startNewBatchWithInitialTools(boundary?: number): number {
    this.#startQuietly(boundary, true);
    return this.currentBatch;
  }

  /**
   * Makes batch `batch` current again, with exactly the view it had; later batches are dropped.
   * A batch started with initial tools shows the current tools' description if they changed since.
   */
  rollbackToBatch(batch: number): number {
    return this.#rollback(batch).batch;
  }

  // ---- the tool-description guarantee ---------------------------------------------------

  /** The description message the current initial tools call for, or undefined when there are none. */
  getInitialToolDescriptionMessage(): LLMMessage | undefined {
    return this.#descriptions.wanted();
  }

  /** True when the current batch shows a tool-description message (earlier batches do not count). */
  hasToolDescriptionMessage(): boolean {
    const { messages } = this.#state;
    return this.#state.current.live.some((p) => isToolDescription(messages[p]!));
  }

  // ---- the index ------------------------------------------------------------------------

  /**
   * Shows the stored messages at `indices`, in that order, in the current batch. In a batch started
   * with initial tools the description stays pinned: other descriptions named are left out, and
   * the current one is placed after the leading system messages if `indices` leaves it out.
   */
  setOriginalIndices(indices: readonly number[]): OperationResult {
    const live = checkIndices(indices, this.#state.messages.length);
    return this.#writer.commitView('BATCH_MANAGEMENT', live, []);
  }

  /** The index; its `reset()` empties the view (a batch with initial tools keeps its description). */
  getIndexManager(): MessageIndex {
    return new MessageIndex({
      live: () => this.#state.current.live,
      lookup: this.#lookup,
      boundaries: () => this.#state.batches.map((b) => b.startedAt),
      reset: () => {
        this.#writer.commitView('BATCH_MANAGEMENT', [], []);
      },
    });
  }

  // ---- context operations ---------------------------------------------------------------

  applyOperation(op: ContextOperation): OperationResult {
    checkOperation(op);
    switch (op.type) {
      case 'TRUNCATE': {
        const next = truncateList(
          this.#live(),
          this.#lookup,
          checkTruncate(op),
          this.#countTokens(),
        );
        return this.#writer.commitView('TRUNCATE', next, []);
      }
      case 'INSERT':
      case 'REPLACE': {
        const placed = placeMessage(
          op,
          this.#live(),
          this.#lookup,
          this.#state.messages.length,
          this.#content,
        );
        return this.#writer.commitView(op.type, placed.live, [placed.message]);
      }
      case 'CLEAR': {
        const keep = checkBoolean(op.keepSystemMessage, 'keepSystemMessage', true);
        const base = keep ? systemMessagesOf(this.#live(), this.#lookup) : [];
        return this.#startBatch(undefined, true, base, 'CLEAR');
      }
      case 'SUMMARIZE': {
        const { summary, keepTurns, role } = checkSummarize(op);
        const { system, kept, summarized } = this.#summarySplit(keepTurns);
        const message = normalizeMessage(
          {
            role,
            content: summary,
            metadata: { kind: SUMMARY_KIND, summarized: summarized.length },
          },
          'SUMMARIZE summary',
          this.#content,
        );
        const at = this.#state.messages.length;
        const base = [...system, at, ...kept];
        return this.#writer.startBatch(base, true, 'SUMMARIZE', false, [message]);
      }
      case 'FILTER':
        checkFilter(op);
        return this.#writer.commitView('FILTER', filterList(this.#live(), this.#lookup, op), []);
      case 'BATCH_MANAGEMENT':
        if (op.action === 'start')
          return this.#startBatch(
            op.boundary,
            checkBoolean(op.withInitialTools, 'withInitialTools', true),
          );
        if (op.action === 'rollback') return this.#rollback(op.batch);
        throw unknownOperation('operation.action', (op as { action: unknown }).action);
      default:
        throw unknownOperation('operation.type', (op as { type: unknown }).type);
    }
  }

  /**
   * The visible messages a SUMMARIZE keeping `keepTurns` turns would stand for, in order: all
   * shown but the system messages, the tool description and the turns kept (an earlier summary
   * is among them, to be summarised again). Empty: there is nothing to summarise. The engine
   * sends these to the model that writes the summary.
   */
  getMessagesToSummarize(keepTurns = 0): readonly LLMMessage[] {
    const turns = checkCount(keepTurns, 'keepTurns');
    return this.#summarySplit(turns).summarized.map(this.#lookup);
  }

  /** What a summary keeps (system messages, the last turns) and what it stands for. */
  #summarySplit(keepTurns: number) {
    const live = this.#live();
    // An earlier summary (of either role) is summarised again, not kept beside the new one.
    const system = systemMessagesOf(live, this.#lookup).filter((p) => !isSummary(this.#lookup(p)));
    const kept = lastTurns(live, this.#lookup, keepTurns);
    const summarized = live.filter(
      (p) => !system.includes(p) && !kept.includes(p) && !isToolDescription(this.#lookup(p)),
    );
    return { system, kept, summarized };
  }

  // ---- usage ----------------------------------------------------------------------------

  recordUsage(usage: TokenUsage): void {
    const checked = checkUsage(usage);
    this.#state.apply({ op: 'usage', at: this.#state.messages.length, usage: checked });
    this.#events.emit('usage:recorded', { usage: checked, batch: this.currentBatch });
  }

  getUsage(): UsageStats {
    return usageStats(this.#state);
  }

  /** The whole thread's token usage (`getUsage().total`), without the per-batch figures. */
  getTotalUsage(): TokenUsage {
    return totalUsage(this.#state);
  }

  // ---- snapshots ------------------------------------------------------------------------

  /** The whole conversation as plain JSON (messages and log entries are frozen). */
  snapshot(): ConversationSnapshot {
    return deltaOf(this.#state, { messages: 0, log: 0 });
  }

  /** Where the conversation is now; pass it to `deltaSince` later for an incremental save. */
  cursor(): ConversationCursor {
    const messages = this.#state.messages.length;
    const log = this.#state.log.length;
    const last = this.#cursor;
    // The engine asks several times per node, mostly with nothing added in between.
    if (last.messages === messages && last.log === log) return last;
    this.#cursor = Object.freeze({ messages, log });
    return this.#cursor;
  }

  /** What was stored and logged after `cursor`: O(change), whatever the history's length. */
  deltaSince(cursor: ConversationCursor): ConversationDelta {
    const { messages, log } = this.#state;
    const from = checkCursor(cursor, messages.length, log.length);
    // Built directly (every checkpoint of every thread asks for one).
    return {
      version: SNAPSHOT_VERSION,
      from,
      messages: messages.slice(from.messages),
      log: log.slice(from.log),
    };
  }

  /**
   * Shows again the batches and views the conversation had at `cursor` (an earlier `cursor()`),
   * as when a node that failed halfway is undone. Messages stored since stay stored (nothing is
   * lost) and thread-level usage keeps counting what was spent; the change is one log entry.
   * O(history): it replays the log up to the cursor.
   */
  revertTo(cursor: ConversationCursor): OperationResult {
    const { messages, log } = this.#state;
    const batches = batchesAt(this.#state, checkCursor(cursor, messages.length, log.length));
    return this.#writer.goBack(batches[batches.length - 1]!, () => {
      this.#state.apply({ op: 'restore', at: messages.length, batches });
    });
  }

  // ---- internals ------------------------------------------------------------------------

  #live(): readonly number[] {
    return this.#state.current.live;
  }

  #lookup = (position: number): LLMMessage => this.#state.messages[position]!;

  #startBatch(
    boundary: number | undefined,
    withTools: boolean,
    base?: number[],
    type: OperationResult['type'] = 'BATCH_MANAGEMENT',
  ): OperationResult {
    const total = this.#state.messages.length;
    const carried = base ?? liveFrom(this.#live(), checkBoundary(boundary, total), total);
    return this.#writer.startBatch(carried, withTools, type);
  }

  /** `#startBatch` for callers that need only the batch number. */
  #startQuietly(boundary: number | undefined, withTools: boolean): void {
    const total = this.#state.messages.length;
    const carried = liveFrom(this.#live(), checkBoundary(boundary, total), total);
    this.#writer.startBatch(carried, withTools, 'BATCH_MANAGEMENT', true);
  }

  #rollback(requested: number): OperationResult {
    const batch = checkBatch(requested, this.#state.batches.length);
    const restore = () => {
      this.#state.apply({ op: 'rollback', at: this.#state.messages.length, batch });
    };
    return this.#writer.goBack(this.#state.batches[batch]!, restore, batch);
  }
}
