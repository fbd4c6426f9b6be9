import { SkeinError } from '@skein/conversation';
import { ProviderRequestError } from '../errors/provider-request-error.js';
import { RequestAbortedError } from '../errors/request-aborted-error.js';
import { RequestTimeoutError } from '../errors/request-timeout-error.js';

interface SdkErrorFields {
  readonly status?: unknown;
  readonly code?: unknown;
  readonly error?: unknown;
  readonly message?: unknown;
  readonly requestID?: unknown;
}

function providerMessage(error: SdkErrorFields): string {
  const body = error.error;
  if (typeof body === 'object' && body !== null) {
    const message = (body as { message?: unknown }).message;
    if (typeof message === 'string' && message.length !== 0) return message;
  }
  return typeof error.message === 'string' ? error.message : String(error);
}

/**
 * Turns what the `openai` package threw for a request (after its own retries) into a typed error.
 * Duck-typed rather than `instanceof`, so a client built from another copy of `openai` works too.
 */
export function mapSdkError(
  error: unknown,
  model: string,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): SkeinError {
  if (SkeinError.isInstance(error)) return error;
  if (signal?.aborted) return new RequestAbortedError(model, 'request', signal.reason);
  const fields = (typeof error === 'object' && error !== null ? error : {}) as SdkErrorFields;
  const kind = (error as { constructor?: { name?: string } } | null)?.constructor?.name;
  if (kind === 'APIConnectionTimeoutError') {
    return new RequestTimeoutError(model, 'request', timeoutMs, error);
  }
  const status = typeof fields.status === 'number' ? fields.status : undefined;
  const code = fields.code;
  return new ProviderRequestError(
    {
      status,
      providerCode: typeof code === 'string' || typeof code === 'number' ? code : undefined,
      providerMessage: providerMessage(fields),
      model,
      requestId: typeof fields.requestID === 'string' ? fields.requestID : undefined,
    },
    error,
  );
}
