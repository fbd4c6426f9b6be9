import type { LLMStreamEvent, ToolCall } from '@skein/spec';

/** One tool call as its parts arrive: `tool-input-start / -delta / -end`, then `tool-call`. */
interface CallState {
  readonly index: number;
  readonly id: string;
  /** The name as the provider sent it (encoded, where a codec is in use); late or never. */
  wireName: string | undefined;
  /** The arguments streamed so far. */
  streamed: string;
  /** The `tool-call` part's `input`, which wins over the streamed text when both arrived. */
  input: string | undefined;
  providerMetadata: Readonly<Record<string, unknown>> | undefined;
}

/** What the accumulator needs from its client: events out, names decoded, ids made. */
interface ToolCallSink {
  emit(event: LLMStreamEvent): void;
  decode(wireName: string): string;
  newId(): string;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value : undefined;

const record = (value: unknown): Readonly<Record<string, unknown>> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

function jsonProblem(args: string): string | undefined {
  try {
    JSON.parse(args);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * Builds Skein tool calls from an AI SDK stream with the guarantees of @skein/openai's
 * accumulator: a call whose id is missing or blank gets a unique one (and a warning), a name that
 * arrives late (only on `tool-call`) is taken then, arguments split over any number of deltas are
 * joined, and a call that cannot be run (no name, arguments that are not JSON) is kept with an
 * `error` so the engine answers it instead of running a tool. `tool-call-delta` events carry the
 * original name and the call's final id, and their `argumentsDelta`s join to the arguments.
 * Calls the provider runs itself (`providerExecuted`) are not Skein's to run and are left out.
 */
export class ToolCallParts {
  readonly #sink: ToolCallSink;
  readonly #calls: CallState[] = [];
  readonly #byId = new Map<string, CallState>();
  readonly #providerExecuted = new Set<string>();

  constructor(sink: ToolCallSink) {
    this.#sink = sink;
  }

  get count(): number {
    return this.#calls.length;
  }

  #open(wireId: string | undefined, wireName: string | undefined): CallState {
    const id = wireId ?? this.#sink.newId();
    if (wireId === undefined)
      this.#sink.emit({
        type: 'warning',
        code: 'TOOL_CALL_ID_GENERATED',
        message: `tool call ${this.#calls.length} arrived without an id; it was given "${id}"`,
        details: { index: this.#calls.length, id },
      });
    const state: CallState = {
      index: this.#calls.length,
      id,
      wireName,
      streamed: '',
      input: undefined,
      providerMetadata: undefined,
    };
    this.#calls.push(state);
    this.#byId.set(wireId ?? id, state);
    return state;
  }

  /** The call a part without a usable id belongs to: the one call still open, else a new one. */
  #find(wireId: string | undefined): CallState | undefined {
    if (wireId !== undefined) return this.#byId.get(wireId);
    const open = this.#calls.filter((c) => c.input === undefined);
    return open.length === 1 ? open[0] : undefined;
  }

  #delta(state: CallState, argumentsDelta: string): void {
    const name = state.wireName === undefined ? undefined : this.#sink.decode(state.wireName);
    this.#sink.emit({
      type: 'tool-call-delta',
      index: state.index,
      id: state.id,
      ...(name === undefined ? {} : { name }),
      argumentsDelta,
    });
  }

  start(part: Readonly<Record<string, unknown>>): void {
    const wireId = text(part.id);
    if (part.providerExecuted === true) {
      if (wireId !== undefined) this.#providerExecuted.add(wireId);
      return;
    }
    const state = this.#find(wireId) ?? this.#open(wireId, text(part.toolName));
    state.wireName ??= text(part.toolName);
    state.providerMetadata ??= record(part.providerMetadata);
    this.#delta(state, '');
  }

  delta(part: Readonly<Record<string, unknown>>): void {
    const wireId = text(part.id);
    if (wireId !== undefined && this.#providerExecuted.has(wireId)) return;
    const piece = typeof part.delta === 'string' ? part.delta : '';
    const state = this.#find(wireId) ?? this.#open(wireId, undefined);
    state.streamed += piece;
    if (piece !== '') this.#delta(state, piece);
  }

  call(part: Readonly<Record<string, unknown>>): void {
    const wireId = text(part.toolCallId);
    if (part.providerExecuted === true || (wireId && this.#providerExecuted.has(wireId))) return;
    const state = this.#find(wireId) ?? this.#open(wireId, text(part.toolName));
    state.wireName = text(part.toolName) ?? state.wireName;
    state.providerMetadata = record(part.providerMetadata) ?? state.providerMetadata;
    const input = typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? {});
    // A provider that streams no input deltas (or fewer than the whole) still streams it once,
    // so the deltas of every call join to its arguments.
    if (state.streamed === '' && input !== '') {
      state.streamed = input;
      this.#delta(state, input);
    }
    state.input = input;
  }

  /** The calls, in the order they started, with provider metadata by id where any came. */
  finish(): { calls: ToolCall[]; metadata: Record<string, Readonly<Record<string, unknown>>> } {
    const metadata: Record<string, Readonly<Record<string, unknown>>> = {};
    const calls = this.#calls.map((state): ToolCall => {
      if (state.providerMetadata !== undefined) metadata[state.id] = state.providerMetadata;
      const raw = state.input ?? state.streamed;
      const args = raw.trim() === '' ? '{}' : raw;
      const name = state.wireName === undefined ? '' : this.#sink.decode(state.wireName);
      if (name === '')
        return {
          id: state.id,
          name,
          arguments: args,
          error: 'The tool call arrived without a tool name, so no tool was run.',
        };
      const problem = jsonProblem(args);
      if (problem === undefined) return { id: state.id, name, arguments: args };
      this.#sink.emit({
        type: 'warning',
        code: 'TOOL_CALL_ARGUMENTS_INVALID',
        message: `tool call "${name}" (${state.id}): the arguments are not JSON (${problem}); the tool will not run`,
        details: { id: state.id, name, arguments: args },
      });
      return {
        id: state.id,
        name,
        arguments: args,
        error: `The arguments of tool call "${name}" are not valid JSON (${problem}), so the tool was not run. Arguments received: ${args}`,
      };
    });
    return { calls, metadata };
  }
}
