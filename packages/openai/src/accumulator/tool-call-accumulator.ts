import type { LLMStreamEvent } from '@skein/spec';
import { accumulatorClosed, invalidChunk, streamLimitExceeded } from '../errors/provider-errors.js';
import { resolveAccumulatorOptions } from './accumulator-options.js';
import { ChoiceState, choiceResult } from './choice-state.js';
import { continuationArguments } from './continuation-chunk.js';
import { finalizeToolCall } from './finalize-tool-call.js';
import { objectArguments, takeExtraContent } from './non-string-values.js';
import { providerStreamError } from './provider-error-payload.js';
import { toTokenUsage } from './token-usage.js';
import type { ToolCallState } from './tool-call-state.js';
import type {
  AccumulatorResult,
  AccumulatorWarning,
  RawChoice,
  RawChunk,
  RawDelta,
  RawFunction,
  RawToolCallFragment,
  ToolCallAccumulatorOptions,
} from './types.js';
import { type ChunkBounds, validateChoices } from './validate-chunk.js';

/** `null`, `""`, a missing key and (Mistral) the string "null" all mean "no id". */
function idOf(value: unknown): string {
  return typeof value === 'string' && value.length !== 0 && value !== 'null' ? value : '';
}

/**
 * Assembles a Chat Completions stream (`chat.completion.chunk` objects, in order) into text,
 * reasoning and complete tool calls, following the rules in the README: calls keyed by `index`
 * (or by id, or by position when a server sends no index), `id`/`name`/`type` taken from their
 * first non-empty value, only `arguments` concatenated, everything finalised in `finish()`.
 */
export class ToolCallAccumulator {
  readonly #onEvent: ((event: LLMStreamEvent) => void) | undefined;
  readonly #bounds: ChunkBounds;
  readonly #maxToolCalls: number;
  readonly #maxArgumentsLength: number;
  readonly #maxTextLength: number;
  /** Characters of text, reasoning and refusal received so far, over all choices. */
  #textLength = 0;
  readonly #generateId: () => string;
  readonly #choices: ChoiceState[] = [];
  readonly #warnings: AccumulatorWarning[] = [];
  /** The first choice seen: its text and calls become the message, and only it streams events. */
  #primary: ChoiceState | undefined = undefined;
  /** Cache of the choice with index 0 (nearly every stream has only that one). */
  #choice0: ChoiceState | undefined = undefined;
  #chunks = 0;
  #rawUsage: unknown = undefined;
  #model: string | undefined = undefined;
  #responseId: string | undefined = undefined;
  #result: AccumulatorResult | undefined = undefined;
  /** Position of the fragment being applied (chunk, choice, fragment), for error messages. */
  #at = { chunk: 0, choice: 0, fragment: 0 };
  readonly #whereNow = (): string =>
    this.#where(this.#at.chunk, this.#at.choice, this.#at.fragment);

  constructor(options: ToolCallAccumulatorOptions = {}) {
    const resolved = resolveAccumulatorOptions(options);
    this.#onEvent = resolved.onEvent;
    this.#bounds = resolved.bounds;
    this.#maxToolCalls = resolved.maxToolCalls;
    this.#maxArgumentsLength = resolved.maxArgumentsLength;
    this.#maxTextLength = resolved.maxTextLength;
    this.#generateId = resolved.generateId;
  }

  /** Number of chunks pushed so far. */
  get chunks(): number {
    return this.#chunks;
  }

  /** True once any choice has reported a `finish_reason`. */
  get finishReasonSeen(): boolean {
    for (const choice of this.#choices) if (choice.finishReason !== undefined) return true;
    return false;
  }

  /**
   * Adds one parsed chunk. Chunks without `choices` (usage-only) only update usage. Throws a
   * `ProviderError`: `PROVIDER_STREAM_ERROR` for an in-band `{"error": …}` chunk,
   * `INVALID_TOOL_CALL_INDEX` or `INVALID_CHOICE_INDEX` for an unusable index and `INVALID_CHUNK`
   * for a malformed shape; these are found before anything of the chunk is applied, so the
   * accumulator is left as it was. `STREAM_LIMIT_EXCEEDED` (past a bound) can come after earlier
   * parts of the same chunk were applied: a stream that large is abandoned, not resumed.
   */
  push(chunk: unknown): void {
    if (this.#result !== undefined) throw accumulatorClosed();
    if (this.#pushContinuation(chunk)) return;
    const n = this.#chunks + 1;
    if (typeof chunk !== 'object' || chunk === null || Array.isArray(chunk)) {
      throw invalidChunk(`chunk ${n}`, 'not a JSON object');
    }
    const c = chunk as RawChunk;
    const error = c.error;
    if (error !== undefined && error !== null) throw providerStreamError(error, n);
    const choices = validateChoices(c.choices, this.#bounds, n);
    this.#chunks = n;
    this.#noteResponse(c);
    const usage = c.usage;
    if (usage !== undefined && usage !== null) this.#rawUsage = usage;
    for (let i = 0; i < choices.length; i++) this.#pushChoice(choices[i] as RawChoice, n, i);
  }

  /**
   * Finalises every call (ids, defaults, JSON check) and returns the result; warnings found here
   * also go to `onEvent`. Calling it again returns the same result.
   */
  finish(): AccumulatorResult {
    if (this.#result !== undefined) return this.#result;
    const choices = this.#choices.map((state) => {
      const usedIds = new Set<string>();
      const calls = state.calls.map((call) =>
        finalizeToolCall(call, state.index, usedIds, this.#generateId, (w) => this.#warn(w)),
      );
      return choiceResult(state, calls);
    });
    const primaryIndex = this.#primary === undefined ? -1 : this.#choices.indexOf(this.#primary);
    const primary =
      choices[primaryIndex] ?? choiceResult(new ChoiceState(0, 0, this.#whereNow), []);
    this.#result = {
      ...primary,
      choices,
      usage: toTokenUsage(this.#rawUsage),
      rawUsage: this.#rawUsage,
      model: this.#model,
      responseId: this.#responseId,
      chunks: this.#chunks,
      warnings: this.#warnings,
    };
    return this.#result;
  }

  /** Applies a chunk that only continues the last call's arguments; false for any other chunk. */
  #pushContinuation(chunk: unknown): boolean {
    const last = this.#choice0?.last;
    if (last === undefined || typeof chunk !== 'object' || chunk === null) return false;
    const c = chunk as RawChunk;
    const args = continuationArguments(c, last, this.#maxArgumentsLength);
    if (args === undefined) return false;
    this.#chunks++;
    this.#noteResponse(c);
    if (args.length !== 0) {
      last.arguments.push(args);
      if (this.#onEvent !== undefined && this.#choice0 === this.#primary) {
        this.#onEvent({ type: 'tool-call-delta', index: last.position, argumentsDelta: args });
      }
    }
    return true;
  }

  /** Adds a delta's text to the running total; past the bound, nothing of it is applied. */
  #countText(content: unknown, reasoning: unknown, refusal: unknown, n: number, i: number): void {
    let added = 0;
    if (typeof content === 'string') added += content.length;
    if (typeof reasoning === 'string') added += reasoning.length;
    if (typeof refusal === 'string') added += refusal.length;
    if (this.#textLength + added > this.#maxTextLength) {
      throw streamLimitExceeded(
        'characters of text, reasoning and refusal (maxTextLength)',
        this.#maxTextLength,
        `chunk ${n}, choices[${i}].delta`,
      );
    }
    this.#textLength += added;
  }

  /** The model and response id come from the first chunk that has them. */
  #noteResponse(c: RawChunk): void {
    if (this.#model === undefined) {
      const model = c.model;
      if (typeof model === 'string' && model.length !== 0) this.#model = model;
    }
    if (this.#responseId === undefined) {
      const id = c.id;
      if (typeof id === 'string' && id.length !== 0) this.#responseId = id;
    }
  }

  #warn(warning: AccumulatorWarning): void {
    this.#warnings.push(warning);
    this.#onEvent?.({ type: 'warning', ...warning });
  }

  /** `index` was checked by `validateChoices`: absent, or an integer in bounds. */
  #choiceAt(index: unknown): ChoiceState {
    if (index === undefined || index === null || index === 0) {
      if (this.#choice0 === undefined) this.#choice0 = this.#openChoice(0);
      return this.#choice0;
    }
    for (const choice of this.#choices) if (choice.index === index) return choice;
    return this.#openChoice(index as number);
  }

  #openChoice(index: number): ChoiceState {
    const choice = new ChoiceState(index, this.#maxToolCalls, this.#whereNow);
    this.#choices.push(choice);
    if (this.#primary === undefined) this.#primary = choice;
    return choice;
  }

  /** The shape was checked by `validateChoices`. */
  #pushChoice(choice: RawChoice, n: number, i: number): void {
    const state = this.#choiceAt(choice.index);
    const d = choice.delta as RawDelta | null | undefined;
    if (d !== undefined && d !== null) {
      const emit = this.#onEvent !== undefined && state === this.#primary;
      const content = d.content;
      // vLLM has sent the same text under both names; take one.
      let reasoning = d.reasoning_content;
      if (typeof reasoning !== 'string' || reasoning.length === 0) reasoning = d.reasoning;
      const refusal = d.refusal;
      this.#countText(content, reasoning, refusal, n, i);
      if (typeof content === 'string' && content.length !== 0) {
        state.text.push(content);
        if (emit) this.#onEvent!({ type: 'text-delta', delta: content });
      }
      if (typeof reasoning === 'string' && reasoning.length !== 0) {
        state.reasoning.push(reasoning);
        if (emit) this.#onEvent!({ type: 'reasoning-delta', delta: reasoning });
      }
      if (typeof refusal === 'string' && refusal.length !== 0) state.refusal.push(refusal);
      const fragments = d.tool_calls as readonly RawToolCallFragment[] | null | undefined;
      if (fragments !== undefined && fragments !== null) {
        for (let j = 0; j < fragments.length; j++) {
          this.#pushFragment(state, fragments[j]!, emit, n, i, j);
        }
      }
    }
    // Applied after the chunk's fragments: the finish reason may ride on the last fragment.
    const finishReason = choice.finish_reason;
    if (
      state.finishReason === undefined &&
      typeof finishReason === 'string' &&
      finishReason.length !== 0
    ) {
      state.finishReason = finishReason;
    }
  }

  /** The shape and `index` were checked by `validateChoices`. */
  #pushFragment(
    state: ChoiceState,
    fragment: RawToolCallFragment,
    emit: boolean,
    n: number,
    i: number,
    j: number,
  ): void {
    const fn = fragment.function as RawFunction | null | undefined;
    const id = idOf(fragment.id);
    const rawName = fn?.name;
    const name = typeof rawName === 'string' ? rawName : '';
    const index = fragment.index;
    const at = this.#at;
    at.chunk = n;
    at.choice = i;
    at.fragment = j;
    const call: ToolCallState =
      index === undefined || index === null
        ? state.callWithoutIndex(id, name)
        : state.callAt(index as number, id, name);
    let delta = '';
    const args = fn?.arguments;
    if (typeof args === 'string') {
      if (args.length !== 0) {
        if (call.arguments.length + args.length > this.#maxArgumentsLength) {
          throw streamLimitExceeded(
            'argument characters',
            this.#maxArgumentsLength,
            `${this.#where(n, i, j)} (call ${call.position})`,
          );
        }
        delta = args;
      }
    } else if (args !== undefined && args !== null) {
      const result = objectArguments(call, args, this.#where(n, i, j));
      if (result.warning !== undefined) this.#warn(result.warning);
      delta = result.delta;
    }
    // All checks passed: mutate only now, so a throwing fragment leaves the call as it was.
    state.last = call;
    if (delta.length !== 0) call.arguments.push(delta);
    let newId = false;
    let newName = false;
    if (id !== '' && call.id === '') {
      call.id = id;
      if (!state.byId.has(id)) state.byId.set(id, call);
      newId = true;
    }
    if (name !== '' && call.name === '') {
      call.name = name;
      newName = true;
    }
    if (call.type === '') {
      const type = fragment.type;
      if (typeof type === 'string' && type.length !== 0) call.type = type;
    }
    if (call.extraContent === undefined) {
      const extra = fragment.extra_content;
      if (extra !== undefined && extra !== null) {
        const dropped = takeExtraContent(call, extra, this.#where(n, i, j));
        if (dropped !== undefined) this.#warn(dropped);
      }
    }
    if (emit && (delta.length !== 0 || newId || newName)) {
      this.#onEvent!({
        type: 'tool-call-delta',
        index: call.position,
        ...(newId ? { id } : {}),
        ...(newName ? { name } : {}),
        argumentsDelta: delta,
      });
    }
  }

  #where(n: number, i: number, j: number): string {
    return `chunk ${n}, choices[${i}].delta.tool_calls[${j}]`;
  }
}
