import { A2A_ERROR_CODE, isJsonRpcError, isRestError } from '@a2a-js/sdk/errors';
import { A2ACallError } from './a2a-call-error.js';

// The SDK reports an HTTP failure as a plain Error whose text carries the status.
const HTTP_STATUS_IN_TEXT = /Status: (\d{3})\b|^Failed to fetch Agent Card from \S+: (\d{3})$/;

function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/**
 * The typed error for a failed request to an agent. The SDK throws three kinds: an A2A protocol
 * error (the agent answered with a JSON-RPC or REST error), a plain Error for an HTTP status
 * without such a body, and fetch's TypeError when nothing answered at all.
 */
export function toCallError(error: unknown, agent: string, operation: string): A2ACallError {
  if (A2ACallError.isInstance(error)) return error;
  const text = error instanceof Error ? error.message : String(error);
  if (isJsonRpcError(error)) {
    const rpcCode = error.envelopeCode;
    return new A2ACallError('A2A_CALL_FAILED', { agent, operation, rpcCode }, text, {
      cause: error,
      retryable: rpcCode === A2A_ERROR_CODE.INTERNAL_ERROR,
    });
  }
  if (isRestError(error)) {
    const httpStatus = error.statusCode;
    return new A2ACallError('A2A_CALL_FAILED', { agent, operation, httpStatus }, text, {
      cause: error,
      retryable: retryableStatus(httpStatus),
    });
  }
  // fetch rejects with a TypeError ("fetch failed") when the connection could not be made or
  // broke; the reason (ECONNREFUSED, ENOTFOUND, …) is in its cause.
  if (error instanceof TypeError) {
    const cause = (error as { cause?: unknown }).cause;
    const reason = cause instanceof Error ? `${text} (${cause.message})` : text;
    return new A2ACallError('A2A_CALL_FAILED', { agent, operation }, `unreachable: ${reason}`, {
      cause: error,
      retryable: true,
    });
  }
  const match = HTTP_STATUS_IN_TEXT.exec(text);
  const httpStatus = match ? Number(match[1] ?? match[2]) : undefined;
  return new A2ACallError(
    'A2A_CALL_FAILED',
    httpStatus === undefined ? { agent, operation } : { agent, operation, httpStatus },
    text,
    { cause: error, retryable: httpStatus !== undefined && retryableStatus(httpStatus) },
  );
}
