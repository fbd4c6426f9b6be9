import { ThreadError } from '@skein/core';
import { ConflictError, InvalidArgumentError, NotFoundError, SkeinError } from '@skein/spec';
import { HttpRequestError } from './http-request-error.js';

/** Core's thread errors that say what the client sent was wrong: 400. */
const BAD_INPUT: ReadonlySet<string> = new Set([
  'RESUME_INPUT_INVALID',
  'INVALID_VARIABLES',
  'VALUE_NOT_JSON',
]);

/**
 * The status an error thrown while answering a request is answered with, on every surface: a
 * refusal's own (`HttpRequestError`); then by kind, never by name: a bad argument 400, something
 * not there 404 (`NotFoundError`), a conflict 409 (`ConflictError`: a resume claimed first, a
 * leased thread, a stale checkpoint; core's `THREAD_STATE`: the thread is not in a state for it),
 * input core's thread refused 400; a store or provider failing for now (a `SkeinError` that says
 * `retryable`) 503; anything else 500.
 */
export function statusOf(error: unknown): number {
  if (HttpRequestError.isInstance(error)) return error.httpStatus;
  if (InvalidArgumentError.isInstance(error)) return 400;
  if (NotFoundError.isInstance(error)) return 404;
  if (ConflictError.isInstance(error)) return 409;
  if (ThreadError.isInstance(error)) {
    if (error.code === 'THREAD_STATE') return 409;
    if (BAD_INPUT.has(error.code)) return 400;
  }
  if (SkeinError.isInstance(error) && error.retryable) return 503;
  return 500;
}
