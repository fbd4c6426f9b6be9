import type { LLMCallOptions, LLMClient, LLMRequest, LLMResponse } from '@skein/spec';
import { InvalidArgumentError, ToolNameCodec, type ToolNameCodecOptions } from '@skein/spec';
import OpenAI from 'openai';
import { requestAborted } from '../errors/provider-errors.js';
import { checkFunctionOption } from '../options/check-function-option.js';
import { checkIntegerOption, MAX_TIMER_MS } from '../options/check-integer-option.js';
import { buildRequestBody } from './build-request-body.js';
import type { CallContext } from './call-context.js';
import { EventForwarder } from './event-forwarder.js';
import { fetchCompletion } from './fetch-completion.js';
import type { MediaFetcher, RefResolver } from './parts/part-options.js';
import { fetchWithoutOverlongRetries } from './retry-after.js';
import { streamCompletion } from './stream-completion.js';
import { toLLMResponse } from './to-llm-response.js';
import { validateConversation } from './validate-conversation.js';

export interface OpenAIClientOptions {
  /** An `openai` client to use as it is (its base URL, key, fetch, retries). */
  readonly client?: OpenAI;
  /** Server base URL, ending in `/v1` for most servers. Ignored when `client` is given. */
  readonly baseURL?: string;
  /** Defaults to the `OPENAI_API_KEY` environment variable. Ignored when `client` is given. */
  readonly apiKey?: string;
  /** Model used when the request names none. */
  readonly model: string;
  /** Stream the response (default `true`). */
  readonly stream?: boolean;
  /** The tool-name codec, or the rule to build one with (default: OpenAI's rule). */
  readonly toolNames?: ToolNameCodec | ToolNameCodecOptions;
  /** Sent as `parallel_tool_calls` when tools are offered; omitted when not set. */
  readonly parallelToolCalls?: boolean;
  /** Per attempt until the response starts, then the longest silence allowed in a stream. */
  readonly timeoutMs?: number;
  /**
   * Retries the `openai` package makes itself for 408/409/429/5xx and connection errors (with
   * backoff, honouring `retry-after`). Default 0: the engine's LLM node retries the errors marked
   * `retryable`, and two layers would multiply the requests. Also applies to a `client` passed in.
   * A retry-after over 2^31 - 1 ms is not retried by a client this package builds (a `client`
   * passed in keeps its own `fetch`, and waits what the `openai` package waits).
   */
  readonly maxRetries?: number;
  /** Where `LLMRequest.maxTokens` goes (default `max_tokens`, which every compatible server takes). */
  readonly maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Longest SSE line, and longest data of one event, in characters (default 32 MiB). */
  readonly maxLineLength?: number;
  /** Most characters of text, reasoning and refusal in one response (default 16 MiB). */
  readonly maxTextLength?: number;
  /**
   * Gets the bytes of audio or a file given by http(s) URL, which the wire takes only as bytes.
   * Not set: such a part fails the call, named; Skein never fetches a URL on its own.
   */
  readonly fetcher?: MediaFetcher;
  /** Reads the bytes of a part given by `ref` (an attachment a store holds). */
  readonly resolveRef?: RefResolver;
}

/** The `LLMClient` this package makes, with its codec and SDK client exposed. */
export interface OpenAIClient extends LLMClient {
  readonly model: string;
  /** The codec every request of this client encodes with; pass it to `exportTranscript`. */
  readonly toolNames: ToolNameCodec;
  readonly openai: OpenAI;
}

/** Retry in one layer: the engine's (see `maxRetries`). */
const DEFAULT_SDK_MAX_RETRIES = 0;

function makeSdkClient(options: OpenAIClientOptions): OpenAI {
  if (options.client !== undefined) return options.client;
  try {
    return new OpenAI({
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
      ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
      maxRetries: options.maxRetries ?? DEFAULT_SDK_MAX_RETRIES,
      fetch: fetchWithoutOverlongRetries,
    });
  } catch (error) {
    throw new InvalidArgumentError(
      'apiKey',
      `Could not create the openai client: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

class OpenAIChatClient implements OpenAIClient {
  readonly name: string;
  readonly model: string;
  readonly toolNames: ToolNameCodec;
  readonly openai: OpenAI;
  readonly #options: OpenAIClientOptions;
  readonly #stream: boolean;

  constructor(options: OpenAIClientOptions) {
    this.#options = options;
    this.model = options.model;
    this.name = `openai:${options.model}`;
    this.#stream = options.stream ?? true;
    this.toolNames =
      options.toolNames instanceof ToolNameCodec
        ? options.toolNames
        : new ToolNameCodec(options.toolNames ?? {});
    this.openai = makeSdkClient(options);
  }

  async generate(request: LLMRequest, options: LLMCallOptions = {}): Promise<LLMResponse> {
    if (typeof request !== 'object' || request === null || !Array.isArray(request.tools)) {
      throw new InvalidArgumentError('request', 'request must be an LLMRequest with a tools array');
    }
    validateConversation(request.messages);
    const model = request.model ?? this.model;
    const body = await buildRequestBody(
      request,
      {
        model,
        stream: this.#stream,
        parallelToolCalls: this.#options.parallelToolCalls,
        maxTokensField: this.#options.maxTokensField ?? 'max_tokens',
        parts: { fetcher: this.#options.fetcher, resolveRef: this.#options.resolveRef },
      },
      this.toolNames,
    );
    const events = new EventForwarder(options.onEvent, this.toolNames);
    const context: CallContext = {
      model,
      signal: options.signal,
      timeoutMs: this.#options.timeoutMs,
      maxRetries: this.#options.maxRetries ?? DEFAULT_SDK_MAX_RETRIES,
      limits: {
        maxLineLength: this.#options.maxLineLength,
        maxTextLength: this.#options.maxTextLength,
      },
      events,
    };
    if (options.signal?.aborted) throw requestAborted(model, 'request', options.signal.reason);
    const result = this.#stream
      ? await streamCompletion(this.openai, body, context)
      : await fetchCompletion(this.openai, body, context);
    return toLLMResponse(result, this.toolNames, model, (warning) =>
      events.emit?.({ type: 'warning', ...warning }),
    );
  }
}

/**
 * An `LLMClient` for any OpenAI-compatible Chat Completions server, through the official `openai`
 * package: streamed tool calls assembled by `ToolCallAccumulator`, tool names encoded to fit the
 * provider and decoded back, conversations checked before they are sent.
 */
export function createOpenAIClient(options: OpenAIClientOptions): OpenAIClient {
  if (typeof options !== 'object' || options === null) {
    throw new InvalidArgumentError('options', 'createOpenAIClient needs an options object');
  }
  if (typeof options.model !== 'string' || options.model.length === 0) {
    throw new InvalidArgumentError('model', 'options.model must be a non-empty string');
  }
  checkIntegerOption('timeoutMs', options.timeoutMs, 1, MAX_TIMER_MS);
  checkIntegerOption('maxRetries', options.maxRetries, 0, 100);
  checkIntegerOption('maxLineLength', options.maxLineLength, 1);
  checkIntegerOption('maxTextLength', options.maxTextLength, 0);
  checkFunctionOption('fetcher', options.fetcher);
  checkFunctionOption('resolveRef', options.resolveRef);
  return new OpenAIChatClient(options);
}
