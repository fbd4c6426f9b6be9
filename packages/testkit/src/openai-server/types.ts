/** A tool call the scripted model makes (the same shape as ScriptedLLMClient's `ScriptedCall`). */
export interface ScriptedToolCall {
  /**
   * Omitted: `call_<number of messages sent>_<n>`, as ScriptedLLMClient makes it. `null`: the
   * server never sends an id.
   */
  readonly id?: string | null;
  readonly name: string;
  /**
   * An object is sent as its JSON; a string is sent as is (so broken JSON can be scripted).
   * Default `{}`. Sent in pieces (or whole, see quirks).
   */
  readonly arguments?: string | Readonly<Record<string, unknown>>;
}

/**
 * One scripted answer of the model. `content`, `toolCalls`, `usage` and `finishReason` mean the
 * same as in ScriptedLLMClient, so a script moves between the two unchanged.
 */
export interface ScriptedTurn {
  readonly content?: string;
  /** Sent as `reasoning_content` deltas before the text. */
  readonly reasoning?: string;
  readonly toolCalls?: readonly ScriptedToolCall[];
  /** `totalTokens` defaults to their sum. */
  readonly usage?: {
    readonly promptTokens: number;
    readonly completionTokens: number;
    readonly totalTokens?: number;
  };
  /** Overrides the finish reason (default `tool_calls` with calls, else `stop`). */
  readonly finishReason?: string;
  /** Quirks for this turn only, on top of the server's. */
  readonly quirks?: OpenAIServerQuirks;
}

/** A recorded fixture file: a JSON array `[header, ...chunks]` whose header has `_fixture_header`. */
export interface FixtureTurn {
  readonly fixture: string | URL;
}

/** Raw `chat.completion.chunk` objects, sent as they are. */
export interface ChunksTurn {
  readonly chunks: readonly unknown[];
}

export type TurnSource = ScriptedTurn | FixtureTurn | ChunksTurn;

/** A turn, or a function choosing one from the request (its body, headers). */
export type ScriptStep = TurnSource | ((request: RecordedRequest) => TurnSource);

/** Ways real servers deviate from OpenAI's stream shape; each can be switched on alone. */
export interface OpenAIServerQuirks {
  /** The first fragment of each call carries `"id": null`; the id comes on the next fragment. */
  readonly nullIdOnFirstChunk?: boolean;
  /** The first fragment of each call has no id; the id comes on its last fragment. */
  readonly idOnLaterChunk?: boolean;
  /** Every fragment repeats `id`, `type` and `function.name`. */
  readonly repeatIdAndName?: boolean;
  /** Fragments carry no `index`. */
  readonly noIndex?: boolean;
  /** Index of the first call (OpenAI: 0; some gateways: 1). */
  readonly indexBase?: number;
  /** Each call's arguments arrive whole in its first fragment. */
  readonly wholeArguments?: boolean;
  /** Usage comes in a last chunk with `choices: []` instead of on the finish chunk. */
  readonly usageOnlyFinalChunk?: boolean;
  /** `finish_reason: "stop"` although tool calls were streamed. */
  readonly stopWithToolCalls?: boolean;
  /** After `afterChunks` chunks (default 1) an in-band `{"error": …}` chunk ends the stream. */
  readonly errorChunk?:
    | true
    | {
        readonly afterChunks?: number;
        readonly error?: {
          readonly message: string;
          readonly code?: string;
          readonly type?: string;
        };
      };
  /**
   * The first `times` requests are answered with `status` (any 4xx/5xx; code `rate_limit_exceeded`
   * for 429, `server_error` for 5xx, else `invalid_request_error`), then the script runs.
   */
  readonly failBeforeSuccess?: {
    readonly status: number;
    readonly times: number;
    /** Sent as `retry-after-ms` (default 1) so retrying clients do not wait long. */
    readonly retryAfterMs?: number;
  };
  /** The connection is destroyed after this many chunks (no `[DONE]`, truncated body). */
  readonly dropAfterChunks?: number;
  /** Characters per arguments fragment (default 4). */
  readonly argumentsChunkSize?: number;
  /** Characters per text or reasoning delta (default 4). */
  readonly textChunkSize?: number;
  /** Pause between chunks, for abort tests (default 0). */
  readonly chunkDelayMs?: number;
}

/**
 * A content part of a Chat Completions message as a client sent it: `text`, `image_url`
 * (`{ url, detail? }`, an https or `data:` URL), `input_audio` (`{ data, format }`, base64) or
 * `file` (`{ file_data?, file_id?, filename? }`). Kept as received, other fields too.
 */
export interface WireContentPart {
  readonly type: string;
  readonly text?: string;
  readonly image_url?: { readonly url: string; readonly detail?: string };
  readonly input_audio?: { readonly data: string; readonly format: string };
  readonly file?: {
    readonly file_data?: string;
    readonly file_id?: string;
    readonly filename?: string;
  };
  readonly [field: string]: unknown;
}

/** A message of a Chat Completions request, fields as the wire names them. */
export interface WireMessage {
  readonly role: string;
  /** A string, or parts (a vision, audio or PDF request), exactly as sent. */
  readonly content?: string | null | WireContentPart[];
  readonly name?: string;
  readonly tool_call_id?: string;
  readonly tool_calls?: {
    readonly id: string;
    readonly type: 'function';
    readonly function: { readonly name: string; readonly arguments: string };
  }[];
  readonly [field: string]: unknown;
}

/**
 * A Chat Completions request body as a client sends it. Nothing is guaranteed (the server records
 * whatever came): every field is optional, and others are kept. Arrays are plain (the parsed
 * JSON), so a test can cast the body to the narrower shape it expects.
 */
export interface ChatCompletionsBody {
  readonly model?: string;
  readonly messages?: WireMessage[];
  readonly tools?: {
    readonly type: 'function';
    readonly function: {
      readonly name: string;
      readonly description?: string;
      readonly parameters?: unknown;
    };
  }[];
  readonly tool_choice?: unknown;
  readonly response_format?: unknown;
  readonly stream?: boolean;
  readonly [field: string]: unknown;
}

/** What the server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The parsed JSON body, or the raw text when it was not a JSON object. */
  readonly body: ChatCompletionsBody | string;
}

export interface OpenAICompatibleServerOptions {
  /** Turns replayed in order, one per successful request; or a function of the request. */
  readonly script: readonly ScriptStep[] | ((request: RecordedRequest, turn: number) => TurnSource);
  readonly quirks?: OpenAIServerQuirks;
  /** Model name in responses when the request names none (default `testkit-model`). */
  readonly model?: string;
  /** The port to listen on, on 127.0.0.1 (default 0: any free port). */
  readonly port?: number;
}

export interface OpenAICompatibleServer {
  /** Base URL ending in `/v1`, for `baseURL` of an OpenAI client. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order (failed attempts included). */
  readonly requests: readonly RecordedRequest[];
  close(): Promise<void>;
}
