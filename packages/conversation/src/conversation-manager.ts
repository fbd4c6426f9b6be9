import { EventEmitter } from 'eventemitter3';
import type {
  ContextOperation,
  FilterOperation,
  OperationResult,
  TruncateOperation,
} from './context-operations.js';
import type { ConversationListeners } from './conversation-events.js';
import type { ConversationCursor, ConversationLogEntry } from './conversation-log.js';
import { ConversationState } from './conversation-state.js';
import { InvalidArgumentError } from './errors/invalid-argument-error.js';
import { InvalidBoundaryError } from './errors/invalid-boundary-error.js';
import { PositionNotVisibleError } from './errors/position-not-visible-error.js';
import { UnknownBatchError } from './errors/unknown-batch-error.js';
import {
  descriptionSlot,
  diffLists,
  filterList,
  systemMessagesOf,
  truncateByCount,
  truncateByTokens,
} from './list-operations.js';
import { type BatchInfo, MessageIndex } from './message-index.js';
import { normalizeMessage } from './message-validation.js';
import {
  type ConversationDelta,
  type ConversationSnapshot,
  replaySnapshot,
  SNAPSHOT_VERSION,
} from './snapshot.js';
import { defaultTokenCounter, type TokenCounter } from './token-counter.js';
import {
  buildToolDescriptionMessage,
  defaultFormatToolDescription,
  isToolDescription,
  type ToolDescriptionFormatter,
} from './tool-description.js';
import type { LLMMessage, TokenUsage, ToolSpec } from './types.js';

export interface ConversationManagerOptions {
  /** The workflow's initial tools, read each time a batch is started with them. */
  readonly initialTools?: () => readonly ToolSpec[];
  readonly formatToolDescription?: ToolDescriptionFormatter;
  /** Counts tokens for TRUNCATE by budget. Default: o200k_base via gpt-tokenizer. */
  readonly tokenCounter?: TokenCounter;
}

export interface UsageStats {
  readonly total: TokenUsage;
  readonly currentBatch: TokenUsage;
  /** Usage of each batch in the current stack, by batch number. */
  readonly byBatch: readonly TokenUsage[];
}

const NO_TOOLS = (): readonly ToolSpec[] => [];

function checkCount(value: unknown, argument: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new InvalidArgumentError(
      argument,
      `${argument} must be a non-negative integer, got ${String(value)}`,
      { value },
    );
  return value;
}

function checkUsageValue(usage: unknown): TokenUsage {
  const u = usage as Record<string, unknown> | null;
  if (typeof u !== 'object' || u === null)
    throw new InvalidArgumentError('usage', 'usage must be an object');
  for (const key of ['promptTokens', 'completionTokens', 'totalTokens']) {
    const v = u[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      throw new InvalidArgumentError(`usage.${key}`, `usage.${key} must be a non-negative number`);
  }
  const { promptTokens, completionTokens, totalTokens } = u as unknown as TokenUsage;
  return { promptTokens, completionTokens, totalTokens };
}

function frozenUsage(u: TokenUsage): TokenUsage {
  return Object.freeze({
    promptTokens: u.promptTokens,
    completionTokens: u.completionTokens,
    totalTokens: u.totalTokens,
  });
}

/**
 * The conversation of one thread. Storage is append-only: every message ever added stays in
 * `getAllMessages()`. What the model sees (`getMessages()`) is the current batch's view, changed by
 * context operations and batches. Every method validates first and changes state only after, so a
 * rejected call leaves the conversation exactly as it was.
 */
export class ConversationManager {
  readonly #state: ConversationState;
  readonly #initialTools: () => readonly ToolSpec[];
  readonly #format: ToolDescriptionFormatter;
  readonly #tokenCounter: TokenCounter;
  readonly #events = new EventEmitter<ConversationListeners>();
  // Token counts per stored position for the manager's own counter (messages are immutable).
  readonly #tokenCache = new Map<number, number>();
  // The last tool description stored, so rebuilding an unchanged one reuses it instead of
  // storing a copy per batch.
  #lastDescription: { position: number; content: string } | undefined;
  #visibleCache: readonly LLMMessage[] | undefined;

  constructor(options: ConversationManagerOptions = {}, state = new ConversationState()) {
    this.#initialTools = options.initialTools ?? NO_TOOLS;
    this.#format = options.formatToolDescription ?? defaultFormatToolDescription;
    this.#tokenCounter = options.tokenCounter ?? defaultTokenCounter;
    this.#state = state;
    for (let p = state.messages.length - 1; p >= 0; p--) {
      const m = state.messages[p]!;
      if (isToolDescription(m)) {
        this.#lastDescription = { position: p, content: m.content };
        break;
      }
    }
  }

  /** Rebuilds a manager from `snapshot()` output (or `applyDeltas` of checkpoints). */
  static restore(
    snapshot: ConversationSnapshot | unknown,
    options: ConversationManagerOptions = {},
  ): ConversationManager {
    return new ConversationManager(options, replaySnapshot(snapshot));
  }

  // ---- events ---------------------------------------------------------------------------

  on<K extends keyof ConversationListeners>(event: K, listener: ConversationListeners[K]): this {
    this.#events.on(event, listener as never);
    return this;
  }

  off<K extends keyof ConversationListeners>(event: K, listener: ConversationListeners[K]): this {
    this.#events.off(event, listener as never);
    return this;
  }

  // ---- messages -------------------------------------------------------------------------

  /** Stores a message and shows it in the current batch. Returns its storage position. */
  addMessage(message: LLMMessage): number {
    const frozen = normalizeMessage(message);
    const position = this.#state.append(frozen);
    this.#visibleCache = undefined;
    if (this.#events.listenerCount('message:added') > 0)
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
    const last = this.#state.batches.length - 1;
    return this.#state.batches.map((b, batch) => ({
      batch,
      startedAt: b.startedAt,
      visibleCount: b.live.length,
      withInitialTools: b.withInitialTools,
      current: batch === last,
    }));
  }

  /** Starts a batch showing the visible messages from `boundary` on (default: none). */
  startNewBatch(boundary?: number): number {
    return this.#startBatch(boundary, false).batch;
  }

  /**
   * Starts a batch showing the visible messages from `boundary` on, with exactly one description
   * of the current initial tools (none when there are none), whatever the previous view held.
   */
  startNewBatchWithInitialTools(boundary?: number): number {
    return this.#startBatch(boundary, true).batch;
  }

  /** Makes batch `batch` current again, with exactly the view it had; later batches are dropped. */
  rollbackToBatch(batch: number): number {
    return this.#rollback(batch).batch;
  }

  // ---- the tool-description guarantee ---------------------------------------------------

  /** The description message the current initial tools call for, or undefined when there are none. */
  getInitialToolDescriptionMessage(): LLMMessage | undefined {
    const tools = this.#initialTools();
    if (tools.length === 0) return undefined;
    return normalizeMessage(buildToolDescriptionMessage(tools, this.#format));
  }

  /** True when the current batch shows a tool-description message (earlier batches do not count). */
  hasToolDescriptionMessage(): boolean {
    const { messages } = this.#state;
    return this.#state.current.live.some((p) => isToolDescription(messages[p]!));
  }

  // ---- the index ------------------------------------------------------------------------

  /** Shows exactly the stored messages at `indices`, in that order, in the current batch. */
  setOriginalIndices(indices: readonly number[]): OperationResult {
    if (!Array.isArray(indices))
      throw new InvalidArgumentError('indices', 'indices must be an array of stored positions');
    const total = this.#state.messages.length;
    const seen = new Set<number>();
    indices.forEach((p, i) => {
      if (typeof p !== 'number' || !Number.isInteger(p) || p < 0 || p >= total)
        throw new InvalidArgumentError(
          `indices[${i}]`,
          `indices[${i}] = ${String(p)} is not a stored position 0..${total - 1}`,
        );
      if (seen.has(p))
        throw new InvalidArgumentError(`indices[${i}]`, `indices[${i}] repeats position ${p}`);
      seen.add(p);
    });
    return this.#commitView('BATCH_MANAGEMENT', indices.slice(), []);
  }

  getIndexManager(): MessageIndex {
    return new MessageIndex({
      live: () => this.#state.current.live,
      lookup: (p) => this.#state.messages[p]!,
      boundaries: () => this.#state.batches.map((b) => b.startedAt),
      reset: () => {
        const all = this.#state.messages.map((_, p) => p);
        this.#commitView('BATCH_MANAGEMENT', all, []);
      },
    });
  }

  // ---- context operations ---------------------------------------------------------------

  applyOperation(op: ContextOperation): OperationResult {
    if (typeof op !== 'object' || op === null)
      throw new InvalidArgumentError('operation', 'operation must be an object');
    switch (op.type) {
      case 'TRUNCATE':
        return this.#truncate(op);
      case 'INSERT':
      case 'REPLACE':
        return this.#place(op.type, op.position, op.message);
      case 'CLEAR':
        return this.#clear(op.keepSystemMessage ?? true);
      case 'FILTER':
        return this.#filter(op);
      case 'BATCH_MANAGEMENT':
        if (op.action === 'start')
          return this.#startBatch(op.boundary, op.withInitialTools ?? true);
        if (op.action === 'rollback') return this.#rollback(op.batch);
        throw new InvalidArgumentError(
          'operation.action',
          `BATCH_MANAGEMENT action must be "start" or "rollback", got ${JSON.stringify((op as { action: unknown }).action)}`,
        );
      default:
        throw new InvalidArgumentError(
          'operation.type',
          `unknown context operation type ${JSON.stringify((op as { type: unknown }).type)}`,
        );
    }
  }

  // ---- usage ----------------------------------------------------------------------------

  recordUsage(usage: TokenUsage): void {
    const checked = checkUsageValue(usage);
    this.#state.apply({ op: 'usage', at: this.#state.messages.length, usage: checked });
    this.#events.emit('usage:recorded', { usage: checked, batch: this.currentBatch });
  }

  getUsage(): UsageStats {
    const byBatch = this.#state.batches.map((b) => frozenUsage(b.usage));
    return {
      total: frozenUsage(this.#state.usage),
      currentBatch: byBatch[byBatch.length - 1]!,
      byBatch,
    };
  }

  // ---- snapshots ------------------------------------------------------------------------

  /** The whole conversation as plain JSON. */
  snapshot(): ConversationSnapshot {
    return {
      version: SNAPSHOT_VERSION,
      messages: this.#state.messages.slice(),
      log: this.#state.log.slice(),
    };
  }

  /** Where the conversation is now; pass it to `deltaSince` later for an incremental save. */
  cursor(): ConversationCursor {
    return { messages: this.#state.messages.length, log: this.#state.log.length };
  }

  /** What was stored and logged after `cursor`: O(change), whatever the history's length. */
  deltaSince(cursor: ConversationCursor): ConversationDelta {
    const { messages, log } = this.#state;
    if (
      !Number.isInteger(cursor?.messages) ||
      !Number.isInteger(cursor?.log) ||
      cursor.messages < 0 ||
      cursor.log < 0 ||
      cursor.messages > messages.length ||
      cursor.log > log.length
    )
      throw new InvalidArgumentError(
        'cursor',
        `cursor ${JSON.stringify(cursor)} is not within 0..${messages.length} messages and 0..${log.length} log entries`,
      );
    return {
      version: SNAPSHOT_VERSION,
      from: { messages: cursor.messages, log: cursor.log },
      messages: messages.slice(cursor.messages),
      log: log.slice(cursor.log),
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
    this.deltaSince(cursor); // validates the cursor
    const past = replaySnapshot({
      version: SNAPSHOT_VERSION,
      messages: messages.slice(0, cursor.messages),
      log: log.slice(0, cursor.log),
    });
    const before = this.#live();
    this.#state.apply({
      op: 'restore',
      at: messages.length,
      batches: past.batches.map((b) => ({
        live: b.live.slice(),
        withInitialTools: b.withInitialTools,
        startedAt: b.startedAt,
        usage: { ...b.usage },
      })),
    });
    this.#visibleCache = undefined;
    return this.#result('BATCH_MANAGEMENT', before, false, []);
  }

  // ---- internals ------------------------------------------------------------------------

  #live(): readonly number[] {
    return this.#state.current.live;
  }

  #lookup = (position: number): LLMMessage => this.#state.messages[position]!;

  #checkBoundary(boundary: number | undefined): number {
    const visible = this.#live().length;
    if (boundary === undefined) return visible;
    if (
      typeof boundary !== 'number' ||
      !Number.isInteger(boundary) ||
      boundary < 0 ||
      boundary > visible
    )
      throw new InvalidBoundaryError(boundary, visible);
    return boundary;
  }

  /**
   * Returns `live` with exactly one current tool description (none without initial tools), and
   * the message to store for it when no stored one can be reused.
   */
  #withDescription(live: number[]): { live: number[]; store?: LLMMessage } {
    const tools = this.#initialTools();
    const messages = this.#state.messages;
    const descriptions = live.filter((p) => isToolDescription(messages[p]!));
    if (tools.length === 0) {
      return { live: descriptions.length ? live.filter((p) => !descriptions.includes(p)) : live };
    }
    const message = normalizeMessage(buildToolDescriptionMessage(tools, this.#format));
    if (descriptions.length === 1 && messages[descriptions[0]!]!.content === message.content)
      return { live };
    const rest = descriptions.length ? live.filter((p) => !descriptions.includes(p)) : live;
    const slot = descriptionSlot(rest, this.#lookup);
    const last = this.#lastDescription;
    if (last && last.content === message.content) {
      return { live: [...rest.slice(0, slot), last.position, ...rest.slice(slot)] };
    }
    const position = messages.length;
    return { live: [...rest.slice(0, slot), position, ...rest.slice(slot)], store: message };
  }

  #startBatch(
    boundary: number | undefined,
    withTools: boolean,
    base?: number[],
    type: OperationResult['type'] = 'BATCH_MANAGEMENT',
  ): OperationResult {
    const start = base === undefined ? this.#checkBoundary(boundary) : 0;
    const carried = base ?? this.#live().slice(start);
    const { live, store } = withTools ? this.#withDescription(carried) : { live: carried };
    const before = this.#live();
    const at = this.#state.messages.length;
    const stored: number[] = [];
    if (store) {
      stored.push(this.#storeMessage(store));
      this.#lastDescription = { position: stored[0]!, content: store.content };
    }
    const entry: ConversationLogEntry = {
      op: 'batch',
      at,
      live,
      withInitialTools: withTools,
      ...(stored.length ? { stored: stored.length } : {}),
    };
    this.#state.apply(entry);
    this.#visibleCache = undefined;
    const batch = this.currentBatch;
    this.#events.emit('batch:started', { batch, withInitialTools: withTools });
    return this.#result(type, before, true, stored);
  }

  #rollback(batch: number): OperationResult {
    const count = this.#state.batches.length;
    if (typeof batch !== 'number' || !Number.isInteger(batch) || batch < 0 || batch >= count)
      throw new UnknownBatchError(batch, count);
    const before = this.#live();
    this.#state.apply({ op: 'rollback', at: this.#state.messages.length, batch });
    this.#visibleCache = undefined;
    this.#events.emit('batch:rolledBack', { batch });
    return this.#result('BATCH_MANAGEMENT', before, false, []);
  }

  #clear(keepSystemMessage: boolean): OperationResult {
    if (typeof keepSystemMessage !== 'boolean')
      throw new InvalidArgumentError('keepSystemMessage', 'keepSystemMessage must be a boolean');
    const base = keepSystemMessage ? systemMessagesOf(this.#live(), this.#lookup) : [];
    return this.#startBatch(undefined, true, base, 'CLEAR');
  }

  #truncate(op: TruncateOperation): OperationResult {
    const preserveSystem = op.preserveSystem ?? true;
    const live = this.#live();
    let next: number[];
    if ('maxTokens' in op) {
      const maxTokens = checkCount(op.maxTokens, 'maxTokens');
      const counter = op.tokenCounter;
      const tokens = counter
        ? (p: number) => counter(this.#lookup(p))
        : (p: number) => this.#cachedTokens(p);
      next = truncateByTokens(live, this.#lookup, maxTokens, preserveSystem, tokens);
    } else {
      const count = checkCount(op.count, 'count');
      if (op.keep !== 'first' && op.keep !== 'last')
        throw new InvalidArgumentError(
          'keep',
          `keep must be "first" or "last", got ${String(op.keep)}`,
        );
      next = truncateByCount(live, this.#lookup, op.keep, count, preserveSystem);
    }
    return this.#commitView('TRUNCATE', next, []);
  }

  #filter(op: FilterOperation): OperationResult {
    if (op.mode !== undefined && op.mode !== 'keep' && op.mode !== 'remove')
      throw new InvalidArgumentError(
        'mode',
        `mode must be "keep" or "remove", got ${String(op.mode)}`,
      );
    if (op.roles !== undefined && !Array.isArray(op.roles))
      throw new InvalidArgumentError('roles', 'roles must be an array of roles');
    if (op.predicate !== undefined && typeof op.predicate !== 'function')
      throw new InvalidArgumentError('predicate', 'predicate must be a function');
    return this.#commitView('FILTER', filterList(this.#live(), this.#lookup, op), []);
  }

  #place(type: 'INSERT' | 'REPLACE', position: number, message: LLMMessage): OperationResult {
    const visible = this.#live().length;
    const max = type === 'INSERT' ? visible : visible - 1;
    if (
      typeof position !== 'number' ||
      !Number.isInteger(position) ||
      position < 0 ||
      position > max
    )
      throw new PositionNotVisibleError(
        type,
        position,
        max < 0 ? 'none (nothing is visible)' : `0..${max}`,
      );
    const frozen = normalizeMessage(message, `${type} message`);
    const live = this.#live().slice();
    const stored = this.#state.messages.length;
    live.splice(position, type === 'INSERT' ? 0 : 1, stored);
    this.#storeMessage(frozen);
    return this.#commitView(type, live, [stored]);
  }

  #storeMessage(message: LLMMessage): number {
    const position = this.#state.store(message);
    this.#events.emit('message:added', { message, position });
    return position;
  }

  #commitView(type: OperationResult['type'], live: number[], stored: number[]): OperationResult {
    // Operations replace the live array and never mutate it, so the old one needs no copy.
    const before = this.#live();
    const entry: ConversationLogEntry = {
      op: 'view',
      at: this.#state.messages.length - stored.length,
      live,
      ...(stored.length ? { stored: stored.length } : {}),
    };
    this.#state.apply(entry);
    this.#visibleCache = undefined;
    return this.#result(type, before, false, stored);
  }

  #result(
    type: OperationResult['type'],
    before: readonly number[],
    batchStarted: boolean,
    stored: number[],
  ): OperationResult {
    const after = this.#live();
    // The diff is O(visible); compute it only if someone reads it (a CLEAR of a million visible
    // messages should not pay for a list nobody looks at). Live arrays are only ever pushed onto,
    // so (array, length) is a stable picture of each side until then.
    const beforeLength = before.length;
    const afterLength = after.length;
    let diff: { removed: number[]; added: number[] } | undefined;
    const lazyDiff = () => {
      diff ??= diffLists(before.slice(0, beforeLength), after.slice(0, afterLength));
      return diff;
    };
    const result: OperationResult = {
      type,
      batch: this.currentBatch,
      batchStarted,
      visibleBefore: beforeLength,
      visibleAfter: afterLength,
      get removed() {
        return lazyDiff().removed;
      },
      get added() {
        return lazyDiff().added;
      },
      stored,
    };
    this.#events.emit('operation:applied', result);
    return result;
  }

  #cachedTokens(position: number): number {
    let tokens = this.#tokenCache.get(position);
    if (tokens === undefined) {
      tokens = this.#tokenCounter(this.#lookup(position));
      this.#tokenCache.set(position, tokens);
    }
    return tokens;
  }
}
