import type { LLMMessage, ToolSpec } from '@skein/spec';
import { show } from './argument-checks.js';
import {
  type DescribedView,
  descriptionsIn,
  isDescribed,
  type StoredDescription,
  withOneDescription,
} from './description-guard.js';
import { InvalidArgumentError } from './errors/invalid-argument-error.js';
import { normalizeMessage } from './message-validation.js';
import {
  buildToolDescriptionMessage,
  isToolDescription,
  type ToolDescriptionFormatter,
} from './tool-description.js';

type Lookup = (position: number) => LLMMessage;

/**
 * The manager's side of the description guarantee: reads the initial tools when a view is built,
 * builds their description, and says which view a batch started with them must show. It keeps
 * what makes that cheap to repeat: the description last built, the one last stored (reused
 * instead of storing a copy) and the descriptions found in each live list.
 */
export class DescriptionKeeper {
  readonly #initialTools: () => readonly ToolSpec[];
  readonly #format: ToolDescriptionFormatter;
  readonly #lookup: Lookup;
  // Appends never add a description (addMessage refuses them), so an entry stays right while its
  // list grows; a rollback then checks a long view in O(1).
  // Made on first use: a conversation that never rolls back or starts a batch needs none.
  #found: WeakMap<readonly number[], readonly number[]> | undefined;
  #lastStored: StoredDescription | undefined;
  #lastBuilt: LLMMessage | undefined;

  constructor(
    initialTools: () => readonly ToolSpec[],
    format: ToolDescriptionFormatter,
    lookup: Lookup,
    stored: readonly LLMMessage[],
  ) {
    this.#initialTools = initialTools;
    this.#format = format;
    this.#lookup = lookup;
    for (let p = stored.length - 1; p >= 0; p--) {
      if (isToolDescription(stored[p]!)) {
        this.#lastStored = { position: p, content: stored[p]!.content };
        break;
      }
    }
  }

  /** The description the initial tools call for now (undefined for none), checked. */
  wanted(): LLMMessage | undefined {
    const tools: unknown = this.#initialTools();
    if (!Array.isArray(tools))
      throw new InvalidArgumentError(
        'initialTools',
        `initialTools() must return an array of tool specs, got ${show(tools)}`,
      );
    if (tools.length === 0) return undefined;
    for (let i = 0; i < tools.length; i++) {
      if (typeof (tools[i] as { name?: unknown } | null)?.name !== 'string')
        throw new InvalidArgumentError(`initialTools()[${i}]`, `initialTools()[${i}] has no name`);
    }
    const built = buildToolDescriptionMessage(tools as ToolSpec[], this.#format);
    if (typeof built.content !== 'string')
      throw new InvalidArgumentError(
        'formatToolDescription',
        `formatToolDescription must return a string, got ${show(built.content)}`,
      );
    const last = this.#lastBuilt;
    const names = JSON.stringify(built.metadata?.tools);
    if (last?.content === built.content && JSON.stringify(last.metadata?.tools) === names)
      return last;
    this.#lastBuilt = normalizeMessage(built, 'tool description');
    return this.#lastBuilt;
  }

  /**
   * `live` as a batch started with initial tools shows it. `pending` are messages the operation
   * stores first, at `next`, `next + 1`, …; a new description goes after them.
   */
  described(live: readonly number[], next: number, pending: readonly LLMMessage[]): DescribedView {
    const lookup: Lookup = pending.length
      ? (p) => (p < next ? this.#lookup(p) : pending[p - next]!)
      : this.#lookup;
    const wanted = this.wanted();
    return withOneDescription(live, lookup, wanted, this.#lastStored, next + pending.length);
  }

  /** The view `live` needs for the current tools, or undefined when it is right already. */
  refreshed(live: readonly number[], next: number): DescribedView | undefined {
    const wanted = this.wanted();
    let found = this.#found?.get(live);
    if (!found) {
      found = descriptionsIn(live, this.#lookup);
      this.#found ??= new WeakMap();
      this.#found.set(live, found);
    }
    if (isDescribed(found, this.#lookup, wanted)) return undefined;
    return withOneDescription(live, this.#lookup, wanted, this.#lastStored, next);
  }

  /** Notes the descriptions a live list shows, so a later rollback to it need not scan it. */
  shows(live: readonly number[], found: readonly number[] | undefined): void {
    // An empty list is scanned for nothing: no map for it (every new thread starts with one).
    if (!found || live.length === 0) return;
    this.#found ??= new WeakMap();
    this.#found.set(live, found);
  }

  /** Notes a message just stored, so an unchanged description is reused next time. */
  stored(position: number, message: LLMMessage): void {
    if (isToolDescription(message)) this.#lastStored = { position, content: message.content };
  }
}
