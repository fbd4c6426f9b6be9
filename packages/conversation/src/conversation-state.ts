import type { LLMMessage, TokenUsage } from '@skein/spec';
import type { ConversationLogEntry } from './conversation-log.js';

export interface MutableUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface Batch {
  /** Storage positions shown by this batch, in order. Owned here: appends push onto it. */
  live: number[];
  readonly withInitialTools: boolean;
  /** Stored-message count when the batch started. */
  readonly startedAt: number;
  readonly usage: MutableUsage;
}

function zeroUsage(): MutableUsage {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
}

function addUsage(into: MutableUsage, usage: TokenUsage): void {
  into.promptTokens += usage.promptTokens;
  into.completionTokens += usage.completionTokens;
  into.totalTokens += usage.totalTokens;
}

/** Log entries are handed out by `snapshot()` and `deltaSince()`: frozen, they cannot be used to
 * rewrite the history that `revertTo` and restore replay. */
function freezeEntry(entry: ConversationLogEntry): void {
  switch (entry.op) {
    case 'view':
    case 'batch':
      // A shared empty list comes frozen (see `liveFrom`).
      if (!Object.isFrozen(entry.live)) Object.freeze(entry.live);
      break;
    case 'usage':
      Object.freeze(entry.usage);
      break;
    case 'restore':
      for (const b of entry.batches) {
        Object.freeze(b.live);
        Object.freeze(b.usage);
        Object.freeze(b);
      }
      Object.freeze(entry.batches);
      break;
  }
  Object.freeze(entry);
}

/**
 * The fold of the conversation log. Both live changes and restore go through `append`, `store`
 * and `apply`, so a restored conversation is the same as the one that was saved.
 */
export class ConversationState {
  readonly messages: LLMMessage[] = [];
  readonly log: ConversationLogEntry[] = [];
  readonly batches: Batch[] = [
    { live: [], withInitialTools: false, startedAt: 0, usage: zeroUsage() },
  ];
  readonly usage: MutableUsage = zeroUsage();

  get current(): Batch {
    return this.batches[this.batches.length - 1]!;
  }

  /** Stores a message and shows it in the current batch. */
  append(message: LLMMessage): number {
    const position = this.messages.length;
    this.messages.push(message);
    this.current.live.push(position);
    return position;
  }

  /** Stores a message without showing it (an operation will place it). */
  store(message: LLMMessage): number {
    this.messages.push(message);
    return this.messages.length - 1;
  }

  apply(entry: ConversationLogEntry): void {
    switch (entry.op) {
      case 'view':
        this.current.live = entry.live.slice();
        break;
      case 'batch':
        // The first batch of a conversation that has nothing yet takes the place of the implicit
        // batch 0, so a thread built with startNewBatchWithInitialTools(0) starts in batch 0.
        if (entry.at === 0 && this.log.length === 0) this.batches.pop();
        this.batches.push({
          live: entry.live.slice(),
          withInitialTools: entry.withInitialTools,
          startedAt: entry.at,
          usage: zeroUsage(),
        });
        break;
      case 'rollback':
        this.batches.length = entry.batch + 1;
        break;
      case 'usage':
        addUsage(this.usage, entry.usage);
        addUsage(this.current.usage, entry.usage);
        break;
      case 'restore':
        this.batches.length = 0;
        for (const b of entry.batches)
          this.batches.push({
            live: b.live.slice(),
            withInitialTools: b.withInitialTools,
            startedAt: b.startedAt,
            usage: { ...b.usage },
          });
        break;
    }
    freezeEntry(entry);
    this.log.push(entry);
  }
}
