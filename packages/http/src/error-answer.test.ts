import { ThreadError } from '@skein/core';
import { StoreError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { errorAnswer, errorResponse } from './error-answer.js';
import { HttpRequestError } from './http-request-error.js';

describe('errorAnswer', () => {
  it('says what a refusal or a client’s mistake was, with Allow for a 405', () => {
    expect(errorAnswer(HttpRequestError.methodNotAllowed('PUT', ['GET', 'HEAD']))).toEqual({
      status: 405,
      headers: { allow: 'GET, HEAD' },
      body: {
        error: { code: 'METHOD_NOT_ALLOWED', message: 'PUT is not allowed here; use GET or HEAD' },
      },
    });
    expect(errorAnswer(ThreadError.state('t', 'RUNNING', 'busy'))).toMatchObject({
      status: 409,
      body: { error: { code: 'THREAD_STATE', message: 'Thread t is RUNNING: busy' } },
    });
  });

  it('says how to authenticate with a 401: its challenge as WWW-Authenticate', () => {
    expect(errorAnswer(HttpRequestError.unauthorized())).toEqual({
      status: 401,
      headers: { 'www-authenticate': 'Bearer realm="skein"' },
      body: {
        error: {
          code: 'UNAUTHORIZED',
          message: 'Authentication required: this request names no caller the server accepts',
        },
      },
    });
    const expired = HttpRequestError.unauthorized('token expired', 'Bearer error="invalid_token"');
    expect(errorAnswer(expired).headers).toEqual({
      'www-authenticate': 'Bearer error="invalid_token"',
    });
  });

  it('says only its code for a failure for now, and nothing for a 500', () => {
    const busy = new StoreError('STORE_BUSY', 'database /secret/x.db is locked', {
      retryable: true,
    });
    expect(errorAnswer(busy).body.error).toEqual({
      code: 'STORE_BUSY',
      message: 'unavailable for now: try again',
    });
    expect(errorAnswer(ThreadError.maxSteps('t', 9, 'n'))).toEqual({
      status: 500,
      headers: {},
      body: { error: { code: 'INTERNAL_ERROR', message: 'internal error' } },
    });
  });

  it('is a JSON Response for a fetch handler', async () => {
    const response = errorResponse(HttpRequestError.invalidPath('/%'));
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'INVALID_PATH',
    );
  });
});
