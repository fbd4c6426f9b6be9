import { SkeinError } from '@skein/conversation';

/**
 * The provider refused the request (an HTTP error status after retries ran out) or could not be
 * reached. Keeps the HTTP status and the provider's own error code and message.
 */
export class ProviderRequestError extends SkeinError {
  /** HTTP status, or `undefined` when no response arrived (connection error). */
  readonly status: number | undefined;
  readonly providerCode: string | number | undefined;
  readonly providerMessage: string;

  constructor(
    fields: {
      status: number | undefined;
      providerCode: string | number | undefined;
      providerMessage: string;
      model: string;
      requestId?: string | undefined;
    },
    cause: unknown,
  ) {
    const status = fields.status === undefined ? 'connection failed' : `HTTP ${fields.status}`;
    const code = fields.providerCode === undefined ? '' : ` (${String(fields.providerCode)})`;
    super(
      'PROVIDER_REQUEST_FAILED',
      `Chat Completions request for ${fields.model} failed, ${status}${code}: ${fields.providerMessage}`,
      { cause, details: { ...fields } },
    );
    this.status = fields.status;
    this.providerCode = fields.providerCode;
    this.providerMessage = fields.providerMessage;
  }
}
