import { describeValue, jsonSafe } from '@skein/spec';
import {
  isRetryableStatus,
  type OpenAIProviderError,
  streamErrorReceived,
} from '../errors/provider-errors.js';

function codeOf(value: unknown): string | number | undefined {
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}

const TRANSIENT =
  /rate.?limit|server.?error|internal|overload|unavailable|timeout|timed.?out|capacity/i;

/**
 * Whether an in-band error is worth a new request: an HTTP-like code 408/409/429/5xx, or a code or
 * type naming a transient state (`rate_limit_exceeded`, `server_error`, `overloaded_error`, …).
 * Anything else (`invalid_request_error`, `context_length_exceeded`, no code at all) would fail
 * the same way again.
 */
function isTransientProviderError(
  code: string | number | undefined,
  type: string | undefined,
): boolean {
  const status = typeof code === 'number' ? code : /^\d{3}$/.test(code ?? '') ? Number(code) : 0;
  if (status >= 100 && status <= 599) return isRetryableStatus(status);
  return [code, type].some((text) => typeof text === 'string' && TRANSIENT.test(text));
}

/**
 * Builds the typed error for an in-band error. Providers send `{"message", "type", "code"}`, a bare
 * string, or (TGI) `{"error": "text", "error_type": …}` at the top level.
 */
export function providerStreamError(
  error: unknown,
  chunk: number,
): OpenAIProviderError<'PROVIDER_STREAM_ERROR'> {
  if (typeof error === 'string') {
    return streamErrorReceived(jsonSafe(error), {
      providerCode: undefined,
      providerType: undefined,
      providerMessage: error,
      chunk,
      retryable: false,
    });
  }
  const fields =
    typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const message =
    typeof fields.message === 'string' && fields.message.length > 0
      ? fields.message
      : describeValue(error, 1_000);
  const providerCode = codeOf(fields.code) ?? codeOf(fields.status);
  const providerType =
    typeof fields.type === 'string'
      ? fields.type
      : typeof fields.error_type === 'string'
        ? fields.error_type
        : undefined;
  return streamErrorReceived(jsonSafe(error), {
    providerCode,
    providerType,
    providerMessage: message,
    chunk,
    retryable: isTransientProviderError(providerCode, providerType),
  });
}
