import { SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { BodyTooLargeError } from './body-too-large-error.js';
import { CrossOriginRefusedError } from './cross-origin-refused-error.js';
import { HostNotAllowedError } from './host-not-allowed-error.js';
import { MethodNotAllowedError } from './method-not-allowed-error.js';
import { NotAStoreError } from './not-a-store-error.js';
import { ResumeNotAllowedError } from './resume-not-allowed-error.js';
import { RouteNotFoundError } from './route-not-found-error.js';
import { StoreMissingError } from './store-missing-error.js';
import { ThreadNotPausedError } from './thread-not-paused-error.js';
import { UnsupportedMediaTypeError } from './unsupported-media-type-error.js';
import { UnsupportedStoreError } from './unsupported-store-error.js';

describe('inspector errors', () => {
  it('carry their code, facts and marker', () => {
    const errors = [
      new ResumeNotAllowedError('t', 'read-only'),
      new ThreadNotPausedError('t', 'COMPLETED'),
      new UnsupportedStoreError('redis://x', ['a SQLite file']),
      new StoreMissingError('/tmp/x.db'),
      new NotAStoreError('/tmp/x.db', 'the file is empty'),
      new HostNotAllowedError('evil.example'),
      new CrossOriginRefusedError('POST', 'http://evil.example'),
      new UnsupportedMediaTypeError('text/plain'),
      new BodyTooLargeError(65_536),
      new MethodNotAllowedError('PUT', ['GET', 'HEAD']),
      new RouteNotFoundError('/api/x'),
    ];
    expect(errors.map((e) => [e.name, e.code, e.retryable])).toEqual([
      ['ResumeNotAllowedError', 'RESUME_NOT_ALLOWED', false],
      ['ThreadNotPausedError', 'THREAD_NOT_PAUSED', false],
      ['UnsupportedStoreError', 'UNSUPPORTED_STORE', false],
      ['StoreMissingError', 'STORE_MISSING', false],
      ['NotAStoreError', 'NOT_A_STORE', false],
      ['HostNotAllowedError', 'HOST_NOT_ALLOWED', false],
      ['CrossOriginRefusedError', 'CROSS_ORIGIN_REFUSED', false],
      ['UnsupportedMediaTypeError', 'UNSUPPORTED_MEDIA_TYPE', false],
      ['BodyTooLargeError', 'BODY_TOO_LARGE', false],
      ['MethodNotAllowedError', 'METHOD_NOT_ALLOWED', false],
      ['RouteNotFoundError', 'ROUTE_NOT_FOUND', false],
    ]);
    expect(errors.every((e) => SkeinError.isInstance(e))).toBe(true);
    expect(ResumeNotAllowedError.isInstance(errors[1])).toBe(false);
    expect(errors[0]!.message).toMatch(/read-only/);
    expect(new ResumeNotAllowedError('t', 'no-engine').message).toMatch(/no engine/);
    expect(errors[1]!.details).toEqual({ threadId: 't', status: 'COMPLETED' });
    expect(errors[4]!.message).toMatch(/is not a Skein store \(the file is empty\)/);
    expect(new UnsupportedMediaTypeError('').message).toMatch(/not untyped/);
  });
});
