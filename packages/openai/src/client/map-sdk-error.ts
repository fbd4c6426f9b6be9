import { SkeinError } from '@skein/spec';
import { requestAborted, requestFailed, requestTimedOut } from '../errors/provider-errors.js';
import { retryAfterMs } from './retry-after.js';

interface SdkErrorFields {
  readonly status?: unknown;
  readonly code?: unknown;
  readonly error?: unknown;
  readonly message?: unknown;
  readonly requestID?: unknown;
  readonly headers?: unknown;
}

function constructorNames(error: unknown): string[] {
  const names: string[] = [];
  let proto: unknown =
    typeof error === 'object' && error !== null ? Object.getPrototypeOf(error) : null;
  while (typeof proto === 'object' && proto !== null) {
    const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === 'string') names.push(name);
    proto = Object.getPrototypeOf(proto);
  }
  return names;
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
 * Turns what the `openai` package threw for a request into a typed error whose `retryable` says
 * whether a new request can succeed.
 * Duck-typed rather than `instanceof`, so a client built from another copy of `openai` works too.
 */
export function mapSdkError(
  error: unknown,
  model: string,
  signal: AbortSignal | undefined,
  timeoutMs: number | undefined,
): SkeinError {
  if (SkeinError.isInstance(error)) return error;
  if (signal?.aborted) return requestAborted(model, 'request', signal.reason);
  const fields = (typeof error === 'object' && error !== null ? error : {}) as SdkErrorFields;
  const kinds = constructorNames(error);
  if (kinds.includes('APIConnectionTimeoutError')) {
    return requestTimedOut(model, 'request', timeoutMs, error);
  }
  const status = typeof fields.status === 'number' ? fields.status : undefined;
  const code = fields.code;
  return requestFailed(
    {
      status,
      providerCode: typeof code === 'string' || typeof code === 'number' ? code : undefined,
      providerMessage: providerMessage(fields),
      model,
      requestId: typeof fields.requestID === 'string' ? fields.requestID : undefined,
      retryAfterMs: retryAfterMs(fields.headers),
      // Without a status, only the SDK's connection error means nothing came back; anything else
      // (e.g. a RangeError building the error from a deeply nested body) would happen again.
      connectionFailed: kinds.includes('APIConnectionError'),
    },
    error,
  );
}
