import { streamLimitExceeded } from '../errors/provider-errors.js';
import { TextParts } from './text-parts.js';
import { ToolCallState } from './tool-call-state.js';
import type { AccumulatedChoice, AssembledToolCall } from './types.js';

/** What one choice of a streamed response has assembled so far. */
export class ChoiceState {
  readonly index: number;
  readonly text = new TextParts();
  readonly reasoning = new TextParts();
  readonly refusal = new TextParts();
  finishReason: string | undefined = undefined;
  readonly calls: ToolCallState[] = [];
  readonly byIndex = new Map<number, ToolCallState>();
  readonly byId = new Map<string, ToolCallState>();
  /** The call the previous fragment went to: the usual target of the next one. */
  last: ToolCallState | undefined = undefined;
  readonly #maxToolCalls: number;
  /** Where the fragment being applied is; only called to word an error. */
  readonly #where: () => string;

  constructor(index: number, maxToolCalls: number, where: () => string) {
    this.index = index;
    this.#maxToolCalls = maxToolCalls;
    this.#where = where;
  }

  /** Opens a call; `index` -1 means the fragment had none. Later fragments with `index` find it. */
  open(index: number): ToolCallState {
    if (this.calls.length >= this.#maxToolCalls) {
      throw streamLimitExceeded('tool calls', this.#maxToolCalls, this.#where());
    }
    const call = new ToolCallState(this.calls.length, index);
    this.calls.push(call);
    if (index >= 0) this.byIndex.set(index, call);
    return call;
  }

  /**
   * The call an indexed fragment belongs to. One exception to "same index, same call": a fragment
   * bringing a different id and a name on an index whose call already has an id is a new call
   * (servers that put every parallel call on index 0).
   */
  callAt(index: number, id: string, name: string): ToolCallState {
    const last = this.last;
    const call =
      last !== undefined && last.index === index
        ? last
        : (this.byIndex.get(index) ?? this.open(index));
    if (id !== '' && name !== '' && call.id !== '' && call.id !== id) return this.open(index);
    return call;
  }

  /**
   * The call a fragment without `index` belongs to: the call with its id; else the latest call when
   * the fragment only completes it (an id or a name the latest call still lacks, or a repeat of
   * its name); else a new call when it brings a new id or name; else (a bare arguments fragment)
   * the latest call.
   */
  callWithoutIndex(id: string, name: string): ToolCallState {
    const last = this.last;
    if (id !== '') {
      const known = this.byId.get(id);
      if (known !== undefined) return known;
      if (
        last !== undefined &&
        last.id === '' &&
        (name === '' || last.name === '' || last.name === name)
      ) {
        return last;
      }
      return this.open(-1);
    }
    if (name !== '') {
      if (last !== undefined && (last.name === '' || last.name === name)) return last;
      return this.open(-1);
    }
    return last ?? this.open(-1);
  }
}

/** What a choice assembled, with its calls finalised. */
export function choiceResult(
  state: ChoiceState,
  toolCalls: readonly AssembledToolCall[],
): AccumulatedChoice {
  return {
    index: state.index,
    text: state.text.join(),
    reasoning: state.reasoning.join(),
    refusal: state.refusal.join(),
    toolCalls,
    finishReason: state.finishReason,
  };
}
