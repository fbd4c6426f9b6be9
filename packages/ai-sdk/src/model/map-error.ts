import { SkeinError } from '@skein/spec';
import {
  AiSdkProviderError,
  type AiSdkProviderErrorCode,
} from '../errors/ai-sdk-provider-error.js';

// The AI SDK marks its errors with `Symbol.for('vercel.ai.error')` (and one per class), so they
// are recognised here from any copy of `@ai-sdk/provider` without importing it.
const AI_SDK_ERROR = Symbol.for('vercel.ai.error');

interface ErrorFields {
  readonly name?: unknown;
  readonly message?: unknown;
  readonly isRetryable?: unknown;
  readonly statusCode?: unknown;
}

function fieldsOf(error: unknown): ErrorFields {
  return typeof error === 'object' && error !== null ? (error as ErrorFields) : {};
}

function messageOf(error: unknown): string {
  const { message } = fieldsOf(error);
  if (typeof message === 'string' && message.length > 0) return message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}

/** True when the AI SDK made `error` (an `APICallError`, `InvalidResponseDataError`, …). */
function isAiSdkError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && AI_SDK_ERROR in error;
}

/** The typed error for an abort of the caller's signal. */
export function abortError(model: string, reason: unknown): AiSdkProviderError<'REQUEST_ABORTED'> {
  return new AiSdkProviderError(
    'REQUEST_ABORTED',
    `${model}: the call was aborted`,
    { model },
    { cause: reason },
  );
}

/**
 * What the model threw (`PROVIDER_REQUEST_FAILED`), or what an `error` part carried
 * (`PROVIDER_STREAM_ERROR`), as a typed error. `retryable` is the provider error's
 * `isRetryable` (an AI SDK `APICallError` always has one); anything that does not say is not
 * retried, as the AI SDK's own retry loop does not retry it either.
 */
export function providerFailure(
  code: Extract<AiSdkProviderErrorCode, 'PROVIDER_REQUEST_FAILED' | 'PROVIDER_STREAM_ERROR'>,
  error: unknown,
  model: string,
): SkeinError {
  if (SkeinError.isInstance(error)) return error;
  const fields = fieldsOf(error);
  const providerMessage = messageOf(error);
  const statusCode = typeof fields.statusCode === 'number' ? fields.statusCode : undefined;
  const where = code === 'PROVIDER_REQUEST_FAILED' ? 'the request failed' : 'the stream reported';
  return new AiSdkProviderError(
    code,
    `${model}: ${where}${statusCode === undefined ? '' : ` (HTTP ${statusCode})`}: ${providerMessage}`,
    {
      model,
      statusCode,
      providerMessage,
      providerErrorName:
        isAiSdkError(error) && typeof fields.name === 'string' ? fields.name : undefined,
    },
    { cause: error, retryable: fields.isRetryable === true },
  );
}

/** The stream broke or ended early: a new request can complete. */
export function streamInterrupted(model: string, reason: string, cause?: unknown): SkeinError {
  return new AiSdkProviderError(
    'STREAM_INTERRUPTED',
    `${model}: the stream ${reason}`,
    { model },
    { cause, retryable: true },
  );
}
