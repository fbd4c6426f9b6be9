import { SkeinError } from '@skein/spec';
import { WorkerDatabaseError } from './errors/worker-database-error.js';

/** Socket failures: the server is down, restarting or out of reach. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * SQLSTATEs of a server that is going away or not yet there: connection exceptions (class 08),
 * shutdown and crash (57P01-57P03), too many connections (53300).
 */
function isUnavailableState(code: string): boolean {
  return (
    code.startsWith('08') ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03' ||
    code === '53300'
  );
}

// node-postgres reports a dropped connection with a plain Error and no code.
const DROPPED =
  /connection terminated|not queryable|timeout exceeded when trying to connect|connection timeout/i;

/** Whether `error` says the database could not be reached or dropped the connection. */
function isDatabaseUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (error instanceof AggregateError && error.errors.some(isDatabaseUnavailable)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || isUnavailableState(code)))
    return true;
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' && DROPPED.test(message);
}

/** A typed error for a failure of `operation` (a SkeinError passes through unchanged). */
export function databaseError(error: unknown, operation: string): unknown {
  if (SkeinError.isInstance(error)) return error;
  return new WorkerDatabaseError(
    isDatabaseUnavailable(error) ? 'WORKER_DATABASE_UNAVAILABLE' : 'WORKER_DATABASE_ERROR',
    operation,
    error,
  );
}

/** Runs `work`, turning what the driver throws into a `WorkerDatabaseError`. */
export async function onDatabase<T>(operation: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw databaseError(error, operation);
  }
}
