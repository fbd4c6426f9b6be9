import { SkeinError } from '@skein/spec';

/**
 * An error the provider sent inside a 200 stream (a chunk carrying `{"error": …}`, or an SSE
 * `event: error`). Keeps the provider's own code, type and message. `retryable` when the code or
 * type says the failure is transient (see `isTransientProviderError`).
 */
export class ProviderStreamError extends SkeinError<'PROVIDER_STREAM_ERROR'> {
  static override readonly errorName = 'ProviderStreamError';
  /** The provider's error code (`"rate_limit_exceeded"`, `500`, …), or `undefined`. */
  readonly providerCode: string | number | undefined;
  readonly providerType: string | undefined;
  readonly providerMessage: string;
  /** The error object as received (a description instead when JSON could not carry it). */
  readonly payload: unknown;

  constructor(
    payload: unknown,
    fields: {
      providerCode: string | number | undefined;
      providerType: string | undefined;
      providerMessage: string;
      chunk: number;
      retryable: boolean;
    },
  ) {
    const code = fields.providerCode === undefined ? '' : ` (${String(fields.providerCode)})`;
    super(
      'PROVIDER_STREAM_ERROR',
      `The provider sent an error in the stream at chunk ${fields.chunk}${code}: ${fields.providerMessage}`,
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
    this.providerCode = fields.providerCode;
    this.providerType = fields.providerType;
    this.providerMessage = fields.providerMessage;
    this.payload = payload;
  }
}
