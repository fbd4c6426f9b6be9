import { HttpRequestError, type HttpRequestErrorCode } from '@skein/http';
import { describe, expect, it } from 'vitest';
import { notAllowed, threadNotPaused } from './refusals.js';

// One instance per code the HTTP API refuses with (@skein/http's HttpRequestError).
const refusals: [HttpRequestError, HttpRequestErrorCode, number][] = [
  [HttpRequestError.hostNotAllowed('evil.example'), 'HOST_NOT_ALLOWED', 421],
  [HttpRequestError.crossOrigin('POST', 'http://evil.example'), 'CROSS_ORIGIN_REFUSED', 403],
  [HttpRequestError.unsupportedMediaType('text/plain'), 'UNSUPPORTED_MEDIA_TYPE', 415],
  [HttpRequestError.bodyTooLarge(65_536), 'BODY_TOO_LARGE', 413],
  [HttpRequestError.methodNotAllowed('PUT', ['GET', 'HEAD']), 'METHOD_NOT_ALLOWED', 405],
  [HttpRequestError.routeNotFound('/api/x'), 'ROUTE_NOT_FOUND', 404],
  [HttpRequestError.invalidPath('/api/threads/%'), 'INVALID_PATH', 400],
  [notAllowed('resume', 't', 'read-only'), 'RESUME_NOT_ALLOWED', 403],
  [notAllowed('fork', 't', 'no-engine'), 'FORK_NOT_ALLOWED', 403],
  [threadNotPaused('t', 'COMPLETED'), 'THREAD_NOT_PAUSED', 409],
];

describe('the refusals of the HTTP API', () => {
  it('are HttpRequestErrors carrying the status each is answered with, never retryable', () => {
    for (const [error, code, status] of refusals) {
      expect(HttpRequestError.isInstance(error)).toBe(true);
      expect([error.code, error.httpStatus, error.retryable]).toEqual([code, status, false]);
    }
  });

  it('say why, with their facts as fields and in details', () => {
    expect(notAllowed('resume', 't', 'read-only').message).toMatch(/read-only/);
    expect(notAllowed('resume', 't', 'no-engine').message).toMatch(/no engine/);
    expect(notAllowed('fork', 't', 'no-engine')).toMatchObject({
      threadId: 't',
      reason: 'no-engine',
    });
    expect(notAllowed('fork', 't', 'read-only').message).toMatch(/allowFork/);
    const notPaused = threadNotPaused('t', 'COMPLETED');
    expect(notPaused).toMatchObject({ threadId: 't', threadStatus: 'COMPLETED' });
    expect(notPaused.details).toEqual({ threadId: 't', status: 'COMPLETED' });
    const method = HttpRequestError.methodNotAllowed('PUT', ['GET', 'HEAD']);
    expect(method).toMatchObject({ allowed: ['GET', 'HEAD'] });
    expect('allowed' in HttpRequestError.routeNotFound('/api/x')).toBe(false);
    expect('httpStatus' in HttpRequestError.routeNotFound('/api/x').details).toBe(false);
  });
});
