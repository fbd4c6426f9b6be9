import { ThreadError } from '@skein/core';
import {
  CheckpointConflictError,
  CheckpointNotFoundError,
  InvalidArgumentError,
  NotFoundError,
  ProviderError,
  SkeinError,
  StoreError,
  ThreadConflictError,
} from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { HttpRequestError } from './http-request-error.js';
import { statusOf } from './status-of.js';

describe('statusOf', () => {
  it('answers a refusal with its own status', () => {
    expect(statusOf(HttpRequestError.hostNotAllowed('evil.example'))).toBe(421);
    expect(statusOf(HttpRequestError.invalidPath('/%'))).toBe(400);
    expect(statusOf(new HttpRequestError('CHAT_BUSY', 'busy', { chatId: 'c' }))).toBe(409);
    expect(statusOf(new HttpRequestError('TOO_MANY_SESSIONS', 'full', { limit: 1 }))).toBe(503);
  });

  it('answers the engine’s errors by their kind', () => {
    const conflicts = [
      new ThreadConflictError('RESUME_CONFLICT', 't', 'claimed first'),
      new ThreadConflictError('THREAD_LEASED', 't', 'leased'),
      new CheckpointConflictError('t', { messages: 1, log: 1 }, { messages: 0, log: 0 }),
      ThreadError.state('t', 'RUNNING', 'busy'),
    ];
    expect(conflicts.map(statusOf)).toEqual([409, 409, 409, 409]);
    expect(statusOf(new CheckpointNotFoundError('t'))).toBe(404);
    expect(statusOf(new NotFoundError('WORKER_UNKNOWN_THREAD', 'never enqueued'))).toBe(404);
    expect(statusOf(new InvalidArgumentError('payload', 'nested too deep'))).toBe(400);
    expect(statusOf(ThreadError.resumeInput('t', 'not an answer'))).toBe(400);
    for (const code of ['INVALID_VARIABLES', 'VALUE_NOT_JSON'] as const)
      expect([code, statusOf(new ThreadError(code, 'bad input'))]).toEqual([code, 400]);
  });

  it('answers a store or provider failing for now with 503, for good with 500', () => {
    expect(statusOf(new StoreError('STORE_BUSY', 'locked', { retryable: true }))).toBe(503);
    expect(statusOf(new ProviderError('RATE_LIMITED', '429', { retryable: true }))).toBe(503);
    expect(statusOf(new StoreError('STORE_CORRUPT', 'corrupt'))).toBe(500);
  });

  it('guesses nothing from a code’s name: anything else is 500', () => {
    expect(statusOf(new SkeinError('WIDGET_NOT_FOUND', 'a code is not a kind'))).toBe(500);
    expect(statusOf(new SkeinError('WIDGET_INVALID', 'a code is not a kind'))).toBe(500);
    expect(statusOf(ThreadError.maxSteps('t', 10, 'n'))).toBe(500);
    expect(statusOf(new Error('bug'))).toBe(500);
    expect(statusOf(new URIError('URI malformed'))).toBe(500);
    expect(statusOf('thrown string')).toBe(500);
  });
});
