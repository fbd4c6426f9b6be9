import type { LLMMessage } from '@skein/spec';
import type { OperationResult } from './context-operations.js';
import type { ConversationEmitter } from './conversation-emitter.js';
import type { RestoredBatch } from './conversation-log.js';
import type { ConversationState } from './conversation-state.js';
import type { DescribedView } from './description-guard.js';
import type { DescriptionKeeper } from './description-keeper.js';
import { operationResult } from './operation-result.js';

/**
 * How a checked change reaches the conversation: the description guarantee applied to the new
 * view, new messages stored, the change logged as one entry, then the events. The manager checks
 * arguments and decides the view; everything after that goes through here, so every change is
 * stored, logged and announced the same way.
 */
export class ViewWriter {
  readonly #state: ConversationState;
  readonly #descriptions: DescriptionKeeper;
  readonly #events: ConversationEmitter;
  // The manager caches the visible messages; told before any event, so listeners see the change.
  readonly #viewChanged: () => void;

  constructor(
    state: ConversationState,
    descriptions: DescriptionKeeper,
    events: ConversationEmitter,
    viewChanged: () => void,
  ) {
    this.#state = state;
    this.#descriptions = descriptions;
    this.#events = events;
    this.#viewChanged = viewChanged;
  }

  /**
   * Starts a batch showing `carried` (described when `withTools`). With `quiet`, the result is
   * built only if an `operation:applied` listener wants it (a thread starts its first batch this
   * way; a fan-out starts thousands).
   */
  startBatch(
    carried: readonly number[],
    withTools: boolean,
    type: OperationResult['type'],
    quiet?: false,
    toStore?: readonly LLMMessage[],
  ): OperationResult;
  startBatch(
    carried: readonly number[],
    withTools: boolean,
    type: OperationResult['type'],
    quiet: true,
  ): OperationResult | undefined;
  startBatch(
    carried: readonly number[],
    withTools: boolean,
    type: OperationResult['type'],
    quiet = false,
    toStore: readonly LLMMessage[] = [],
  ): OperationResult | undefined {
    const at = this.#state.messages.length;
    // `carried` may name `toStore`'s positions (from `at` on): they are stored with the batch.
    const view = this.#described(carried, withTools, toStore);
    const before = this.#state.current.live;
    const stored = this.#store(view.store ? [...toStore, view.store] : toStore);
    // Two literals rather than a conditional spread: no temporary object per batch.
    this.#state.apply(
      stored.length
        ? { op: 'batch', at, live: view.live, withInitialTools: withTools, stored: stored.length }
        : { op: 'batch', at, live: view.live, withInitialTools: withTools },
    );
    this.#descriptions.shows(this.#state.current.live, view.found);
    this.#viewChanged();
    this.#announce(stored);
    this.#events.emit('batch:started', { batch: this.#batch(), withInitialTools: withTools });
    if (quiet && !this.#events.has('operation:applied')) return undefined;
    return this.#finish(type, before, true, stored);
  }

  /** Replaces the current batch's view with `live` (kept described), storing `toStore` first. */
  commitView(
    type: OperationResult['type'],
    live: readonly number[],
    toStore: readonly LLMMessage[],
  ): OperationResult {
    const view = this.#described(live, this.#state.current.withInitialTools, toStore);
    const before = this.#state.current.live;
    const stored = this.#applyView(view, toStore);
    this.#announce(stored);
    return this.#finish(type, before, false, stored);
  }

  /**
   * Goes back to views the conversation had: `restore` logs the change, after which `target` is
   * the current batch; a batch started with initial tools is brought up to the current tools'
   * description. `rolledBackTo` names the batch for the `batch:rolledBack` event.
   */
  goBack(
    target: Pick<RestoredBatch, 'live' | 'withInitialTools'>,
    restore: () => void,
    rolledBackTo?: number,
  ): OperationResult {
    const refresh = target.withInitialTools
      ? this.#descriptions.refreshed(target.live, this.#state.messages.length)
      : undefined;
    const before = this.#state.current.live;
    restore();
    const stored = refresh ? this.#applyView(refresh) : [];
    this.#viewChanged();
    this.#announce(stored);
    if (rolledBackTo !== undefined) this.#events.emit('batch:rolledBack', { batch: rolledBackTo });
    return this.#finish('BATCH_MANAGEMENT', before, false, stored);
  }

  #batch(): number {
    return this.#state.batches.length - 1;
  }

  /** `live` as a batch shows it: with exactly one current description when `withTools`. */
  #described(
    live: readonly number[],
    withTools: boolean,
    pending: readonly LLMMessage[] = [],
  ): DescribedView {
    if (!withTools) return { live };
    return this.#descriptions.described(live, this.#state.messages.length, pending);
  }

  /** Stores `toStore` then the view's description (if new) and logs the view. */
  #applyView(view: DescribedView, toStore: readonly LLMMessage[] = []): number[] {
    const at = this.#state.messages.length;
    const stored = this.#store(view.store ? [...toStore, view.store] : toStore);
    this.#state.apply({
      op: 'view',
      at,
      live: view.live,
      ...(stored.length ? { stored: stored.length } : {}),
    });
    this.#descriptions.shows(this.#state.current.live, view.found);
    this.#viewChanged();
    return stored;
  }

  #store(messages: readonly LLMMessage[]): number[] {
    const positions: number[] = [];
    for (const message of messages) {
      const position = this.#state.store(message);
      positions.push(position);
      this.#descriptions.stored(position, message);
    }
    return positions;
  }

  // Events go out only once the change is complete, so a listener that reads or calls back into
  // the manager sees a consistent conversation.
  #announce(stored: readonly number[]): void {
    if (!this.#events.has('message:added')) return;
    const { messages } = this.#state;
    for (const position of stored)
      this.#events.emit('message:added', { message: messages[position]!, position });
  }

  #finish(
    type: OperationResult['type'],
    before: readonly number[],
    batchStarted: boolean,
    stored: readonly number[],
  ): OperationResult {
    const after = this.#state.current.live;
    const result = operationResult(type, this.#batch(), batchStarted, before, after, stored);
    this.#events.emit('operation:applied', result);
    return result;
  }
}
