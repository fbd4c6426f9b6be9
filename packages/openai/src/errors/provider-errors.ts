import { describeValue, jsonSafe, ProviderError, type SkeinErrorOptions } from '@skein/spec';
import { MAX_TIMER_MS } from '../options/check-integer-option.js';

/**
 * The codes of the `ProviderError`s this package throws (the class is `@skein/spec`'s): the
 * provider, or what it sent, failed.
 *
 * - `PROVIDER_REQUEST_FAILED`: the provider refused the request (an HTTP error status), could not
 *   be reached, or answered with something the `openai` package could not read. Retryable for
 *   408/409/429/5xx and failed connections, unless the provider asked to retry after more than
 *   2^31 - 1 ms, longer than any timer waits.
 * - `PROVIDER_STREAM_ERROR`: an error the provider sent inside a 200 stream (a chunk carrying
 *   `{"error": …}`, or an SSE `event: error`). Retryable when its code or type says the failure
 *   is transient.
 * - `REQUEST_ABORTED`: the caller's `AbortSignal` fired before or while the response arrived.
 *   Never retried.
 * - `REQUEST_TIMEOUT`: no response headers within `timeoutMs` (per attempt), or no stream bytes for
 *   `timeoutMs`. Retryable: the next attempt may be answered in time.
 * - `STREAM_INTERRUPTED`: the response stream broke before it was complete (connection dropped,
 *   or ended without `[DONE]` and without a finish reason). Nothing of the partial response is
 *   returned. Retryable: a new request can complete; the deltas of the broken one were already
 *   streamed.
 * - `STREAM_LIMIT_EXCEEDED`: a stream that goes past one of the accumulator's bounds (tool calls,
 *   argument length, choices, line length).
 * - `INVALID_CHUNK`: a stream chunk (or SSE payload) that is not the JSON object shape Chat
 *   Completions sends.
 * - `INVALID_CHOICE_INDEX`: a choice whose `index` is not an integer in `0..maxIndex`.
 * - `INVALID_TOOL_CALL_INDEX`: a tool-call fragment whose `index` is negative, fractional, not a
 *   number, or beyond the accumulator's bound: it would silently merge or lose calls.
 * - `ACCUMULATOR_CLOSED`: `push()` after `finish()`: the calls were already finalised and handed
 *   out.
 */
export type OpenAIProviderErrorCode =
  | 'PROVIDER_REQUEST_FAILED'
  | 'PROVIDER_STREAM_ERROR'
  | 'REQUEST_ABORTED'
  | 'REQUEST_TIMEOUT'
  | 'STREAM_INTERRUPTED'
  | 'STREAM_LIMIT_EXCEEDED'
  | 'INVALID_CHUNK'
  | 'INVALID_CHOICE_INDEX'
  | 'INVALID_TOOL_CALL_INDEX'
  | 'ACCUMULATOR_CLOSED';

/**
 * The facts of each code. An error carries those of its code as fields, and has them (with a
 * few more, such as `model` or `where`) in `details`.
 */
export interface OpenAIProviderErrorFacts {
  readonly PROVIDER_REQUEST_FAILED: {
    /** HTTP status, or `undefined` when no usable response arrived. */
    readonly status: number | undefined;
    readonly providerCode: string | number | undefined;
    readonly providerMessage: string;
    /**
     * What the provider's `retry-after-ms` / `retry-after` header asked for, when it sent one, as
     * it asked (even when longer than anyone can wait, and the error is then not retryable).
     */
    readonly retryAfterMs: number | undefined;
  };
  readonly PROVIDER_STREAM_ERROR: {
    /** The provider's error code (`"rate_limit_exceeded"`, `500`, …), or `undefined`. */
    readonly providerCode: string | number | undefined;
    readonly providerType: string | undefined;
    readonly providerMessage: string;
    /** The error object as received (a description instead when JSON could not carry it). */
    readonly payload: unknown;
  };
  readonly REQUEST_ABORTED: {
    readonly model: string;
    readonly phase: 'request' | 'stream';
  };
  readonly REQUEST_TIMEOUT: {
    readonly model: string;
    /** Whether the request got no response, or the stream went quiet. */
    readonly phase: 'request' | 'stream';
    readonly timeoutMs: number | undefined;
  };
  readonly STREAM_INTERRUPTED: {
    readonly reason: string;
    /** Chunks received before the stream broke. */
    readonly chunks: number;
    readonly model?: string;
  };
  readonly STREAM_LIMIT_EXCEEDED: {
    readonly limit: string;
    readonly max: number;
    readonly where: string;
  };
  readonly INVALID_CHUNK: {
    /** Where in the chunk, e.g. `choices[0].delta.tool_calls[1].index`. */
    readonly where: string;
    readonly problem: string;
  };
  readonly INVALID_CHOICE_INDEX: { readonly index: unknown };
  readonly INVALID_TOOL_CALL_INDEX: { readonly index: unknown };
  readonly ACCUMULATOR_CLOSED: Readonly<Record<never, never>>;
}

/** A `ProviderError` of this package with `code` `C`, and the facts of that code as fields. */
export type OpenAIProviderError<C extends OpenAIProviderErrorCode = OpenAIProviderErrorCode> =
  C extends OpenAIProviderErrorCode ? ProviderError<C> & OpenAIProviderErrorFacts[C] : never;

const CODES: ReadonlySet<string> = new Set<OpenAIProviderErrorCode>([
  'PROVIDER_REQUEST_FAILED',
  'PROVIDER_STREAM_ERROR',
  'REQUEST_ABORTED',
  'REQUEST_TIMEOUT',
  'STREAM_INTERRUPTED',
  'STREAM_LIMIT_EXCEEDED',
  'INVALID_CHUNK',
  'INVALID_CHOICE_INDEX',
  'INVALID_TOOL_CALL_INDEX',
  'ACCUMULATOR_CLOSED',
]);

/**
 * True when `value` is a `ProviderError` with `code` (any code of this package when none is
 * given), narrowing it so the facts of the code read as typed fields:
 * `if (isOpenAIProviderError(error, 'PROVIDER_REQUEST_FAILED')) wait(error.retryAfterMs)`.
 */
export function isOpenAIProviderError<C extends OpenAIProviderErrorCode = OpenAIProviderErrorCode>(
  value: unknown,
  code?: C,
): value is OpenAIProviderError<C> {
  return (
    ProviderError.isInstance(value) &&
    (code === undefined ? CODES.has(value.code) : value.code === code)
  );
}

function providerError<C extends OpenAIProviderErrorCode>(
  code: C,
  message: string,
  facts: OpenAIProviderErrorFacts[C],
  options: SkeinErrorOptions,
): OpenAIProviderError<C> {
  return new ProviderError(code, message, { ...options, facts }) as OpenAIProviderError<C>;
}

/** HTTP statuses a retry can get past: timeout, conflict, rate limit, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** `PROVIDER_REQUEST_FAILED`: keeps the HTTP status and the provider's own error code and message. */
export function requestFailed(
  fields: {
    status: number | undefined;
    providerCode: string | number | undefined;
    providerMessage: string;
    model: string;
    requestId?: string | undefined;
    retryAfterMs?: number | undefined;
    /** No status: true when the connection failed, false when the response was unreadable. */
    connectionFailed?: boolean;
  },
  cause: unknown,
): OpenAIProviderError<'PROVIDER_REQUEST_FAILED'> {
  const { connectionFailed = true, ...facts } = fields;
  const status =
    fields.status !== undefined
      ? `HTTP ${fields.status}`
      : connectionFailed
        ? 'connection failed'
        : 'the response could not be read';
  const code = fields.providerCode === undefined ? '' : ` (${String(fields.providerCode)})`;
  // Nobody can wait that long (a timer fires after 1 ms instead), and a retry sent sooner
  // than the provider asked would be refused again: fail the call rather than spin.
  const tooLong = fields.retryAfterMs !== undefined && fields.retryAfterMs > MAX_TIMER_MS;
  const wait = tooLong
    ? `; its retry-after of ${fields.retryAfterMs} ms is longer than any wait (2^31 - 1 ms): not retryable`
    : '';
  return providerError(
    'PROVIDER_REQUEST_FAILED',
    `Chat Completions request for ${fields.model} failed, ${status}${code}: ${fields.providerMessage}${wait}`,
    {
      status: fields.status,
      providerCode: fields.providerCode,
      providerMessage: fields.providerMessage,
      retryAfterMs: fields.retryAfterMs,
    },
    {
      cause,
      details: { ...facts },
      retryable:
        !tooLong &&
        (fields.status === undefined ? connectionFailed : isRetryableStatus(fields.status)),
    },
  );
}

/** `PROVIDER_STREAM_ERROR`: keeps the provider's own code, type and message. */
export function streamErrorReceived(
  payload: unknown,
  fields: {
    providerCode: string | number | undefined;
    providerType: string | undefined;
    providerMessage: string;
    chunk: number;
    retryable: boolean;
  },
): OpenAIProviderError<'PROVIDER_STREAM_ERROR'> {
  const code = fields.providerCode === undefined ? '' : ` (${String(fields.providerCode)})`;
  return providerError(
    'PROVIDER_STREAM_ERROR',
    `The provider sent an error in the stream at chunk ${fields.chunk}${code}: ${fields.providerMessage}`,
    {
      providerCode: fields.providerCode,
      providerType: fields.providerType,
      providerMessage: fields.providerMessage,
      payload,
    },
    {
      details: {
        providerCode: fields.providerCode,
        providerType: fields.providerType,
        providerMessage: fields.providerMessage,
        chunk: fields.chunk,
        payload,
      },
      retryable: fields.retryable,
    },
  );
}

/** `REQUEST_ABORTED`: `reason` (the signal's) is the cause. */
export function requestAborted(
  model: string,
  phase: 'request' | 'stream',
  reason: unknown,
): OpenAIProviderError<'REQUEST_ABORTED'> {
  return providerError(
    'REQUEST_ABORTED',
    `The request to ${model} was aborted during the ${phase}`,
    { model, phase },
    { cause: reason, details: { model, phase }, retryable: false },
  );
}

/** `REQUEST_TIMEOUT`: `timeoutMs` undefined when the client's own timeout fired. */
export function requestTimedOut(
  model: string,
  phase: 'request' | 'stream',
  timeoutMs: number | undefined,
  cause?: unknown,
): OpenAIProviderError<'REQUEST_TIMEOUT'> {
  const limit = timeoutMs === undefined ? 'the client timeout' : `${timeoutMs} ms`;
  return providerError(
    'REQUEST_TIMEOUT',
    phase === 'request'
      ? `The request to ${model} got no response within ${limit}`
      : `The response stream of ${model} sent nothing for ${limit}`,
    { model, phase, timeoutMs },
    { cause, details: { model, phase, timeoutMs }, retryable: true },
  );
}

/** `STREAM_INTERRUPTED`: `reason` says how it broke. */
export function streamInterrupted(
  reason: string,
  details: { chunks: number; model?: string },
  cause?: unknown,
): OpenAIProviderError<'STREAM_INTERRUPTED'> {
  return providerError(
    'STREAM_INTERRUPTED',
    `The response stream of ${details.model ?? 'the model'} broke after ${details.chunks} chunk(s): ${reason}`,
    {
      reason,
      chunks: details.chunks,
      ...(details.model === undefined ? {} : { model: details.model }),
    },
    { cause, details: { reason, ...details }, retryable: true },
  );
}

/** `STREAM_LIMIT_EXCEEDED`: more than `max` of `limit` (named with its option) at `where`. */
export function streamLimitExceeded(
  limit: string,
  max: number,
  where: string,
): OpenAIProviderError<'STREAM_LIMIT_EXCEEDED'> {
  return providerError(
    'STREAM_LIMIT_EXCEEDED',
    `${where}: more than ${max} ${limit}`,
    { limit, max, where },
    { details: { limit, max, where } },
  );
}

/** `INVALID_CHUNK`: `details` adds facts beside `where` and `problem`. */
export function invalidChunk(
  where: string,
  problem: string,
  details: Record<string, unknown> = {},
): OpenAIProviderError<'INVALID_CHUNK'> {
  return providerError(
    'INVALID_CHUNK',
    `Invalid chat.completion.chunk at ${where}: ${problem}`,
    { where, problem },
    { details: { where, problem, ...details } },
  );
}

/** `INVALID_CHOICE_INDEX`: `index` as received, made JSON-safe. */
export function invalidChoiceIndex(
  index: unknown,
  where: string,
  maxIndex: number,
): OpenAIProviderError<'INVALID_CHOICE_INDEX'> {
  return providerError(
    'INVALID_CHOICE_INDEX',
    `Choice index ${describeValue(index)} at ${where} is not an integer in 0..${maxIndex}`,
    { index: jsonSafe(index) },
    { details: { index: jsonSafe(index), where, maxIndex } },
  );
}

/** `INVALID_TOOL_CALL_INDEX`: `index` as received, made JSON-safe. */
export function invalidToolCallIndex(
  index: unknown,
  where: string,
  maxIndex: number,
): OpenAIProviderError<'INVALID_TOOL_CALL_INDEX'> {
  return providerError(
    'INVALID_TOOL_CALL_INDEX',
    `Tool-call index ${describeValue(index)} at ${where} is not an integer in 0..${maxIndex}`,
    { index: jsonSafe(index) },
    { details: { index: jsonSafe(index), where, maxIndex } },
  );
}

export function accumulatorClosed(): OpenAIProviderError<'ACCUMULATOR_CLOSED'> {
  return providerError(
    'ACCUMULATOR_CLOSED',
    'ToolCallAccumulator.push() was called after finish(); create a new accumulator per response',
    {},
    {},
  );
}
