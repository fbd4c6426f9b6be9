import { ProviderStreamError } from '../errors/provider-stream-error.js';

function codeOf(value: unknown): string | number | undefined {
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}

/**
 * Builds the typed error for an in-band error. Providers send `{"message", "type", "code"}`, a bare
 * string, or (TGI) `{"error": "text", "error_type": …}` at the top level.
 */
export function providerStreamError(error: unknown, chunk: number): ProviderStreamError {
  if (typeof error === 'string') {
    return new ProviderStreamError(error, {
      providerCode: undefined,
      providerType: undefined,
      providerMessage: error,
      chunk,
    });
  }
  const fields =
    typeof error === 'object' && error !== null ? (error as Record<string, unknown>) : {};
  const message =
    typeof fields.message === 'string' && fields.message.length > 0
      ? fields.message
      : (JSON.stringify(error) ?? String(error));
  return new ProviderStreamError(error, {
    providerCode: codeOf(fields.code) ?? codeOf(fields.status),
    providerType: typeof fields.type === 'string' ? fields.type : undefined,
    providerMessage: message,
    chunk,
  });
}
