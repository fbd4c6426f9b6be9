import { SkeinError } from '@skein/spec';
import { MAX_TIMER_MS } from '../options/check-integer-option.js';

/** HTTP statuses a retry can get past: timeout, conflict, rate limit, server errors. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/**
 * The provider refused the request (an HTTP error status), could not be reached, or answered
 * with something the `openai` package could not read. Keeps the HTTP status and the provider's
 * own error code and message. `retryable` for 408/409/429/5xx and failed connections, unless
 * the provider asked to retry after more than 2^31 - 1 ms, longer than any timer waits.
 */
export class ProviderRequestError extends SkeinError<'PROVIDER_REQUEST_FAILED'> {
  static override readonly errorName = 'ProviderRequestError';
  /** HTTP status, or `undefined` when no usable response arrived. */
  readonly status: number | undefined;
  readonly providerCode: string | number | undefined;
  readonly providerMessage: string;
  /**
   * What the provider's `retry-after-ms` / `retry-after` header asked for, when it sent one, as
   * it asked (even when longer than anyone can wait, and the error is then not retryable).
   */
  readonly retryAfterMs: number | undefined;

  constructor(
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
  ) {
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
    super(
      'PROVIDER_REQUEST_FAILED',
      `Chat Completions request for ${fields.model} failed, ${status}${code}: ${fields.providerMessage}${wait}`,
      {
        cause,
        details: { ...facts },
        retryable:
          !tooLong &&
          (fields.status === undefined ? connectionFailed : isRetryableStatus(fields.status)),
      },
    );
    this.status = fields.status;
    this.providerCode = fields.providerCode;
    this.providerMessage = fields.providerMessage;
    this.retryAfterMs = fields.retryAfterMs;
  }
}
