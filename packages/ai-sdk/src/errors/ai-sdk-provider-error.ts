import { ProviderError, type SkeinErrorOptions } from '@skein/spec';

/**
 * The codes of the provider failures this package reports (the class is a `ProviderError`, so
 * code that branches on `ProviderError.isInstance` treats every provider alike).
 *
 * - `PROVIDER_REQUEST_FAILED`: the model's `doStream` threw, typically an AI SDK `APICallError`
 *   (an HTTP error status, an unreachable server). Retryable when the provider error says so
 *   (`isRetryable`: 408, 409, 429 and 5xx for the AI SDK's own providers).
 * - `PROVIDER_STREAM_ERROR`: the stream carried an `error` part (the provider reported a failure
 *   mid-answer). Retryable only when the error it carried says `isRetryable: true`.
 * - `STREAM_INTERRUPTED`: the stream broke or ended before its `finish` part. Retryable: a new
 *   request can complete.
 * - `REQUEST_ABORTED`: the caller's signal aborted before or during the call. Never retried.
 */
export type AiSdkProviderErrorCode =
  | 'PROVIDER_REQUEST_FAILED'
  | 'PROVIDER_STREAM_ERROR'
  | 'STREAM_INTERRUPTED'
  | 'REQUEST_ABORTED';

/** What an AiSdkProviderError can say; each is set where it is known. */
export interface AiSdkProviderErrorFacts {
  /** The `LLMClient`'s name, `ai-sdk:<provider>:<modelId>`. */
  readonly model: string;
  /** HTTP status of an `APICallError`. */
  readonly statusCode?: number;
  /** The provider error's own message. */
  readonly providerMessage?: string;
  /** The AI SDK error's name (`AI_APICallError`, …), where it was one. */
  readonly providerErrorName?: string;
}

/** A provider behind an AI SDK model failed; `retryable` is the provider error's own verdict. */
export class AiSdkProviderError<
  Code extends AiSdkProviderErrorCode = AiSdkProviderErrorCode,
> extends ProviderError<Code> {
  static override readonly errorName = 'AiSdkProviderError';
  declare readonly model: string;
  declare readonly statusCode?: number;
  declare readonly providerMessage?: string;
  declare readonly providerErrorName?: string;

  constructor(
    code: Code,
    message: string,
    facts: AiSdkProviderErrorFacts,
    options: SkeinErrorOptions = {},
  ) {
    super(code, message, { ...options, facts });
  }
}
