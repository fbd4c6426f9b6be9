import { SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { ResumeNotAllowedError } from './resume-not-allowed-error.js';
import { StoreMissingError } from './store-missing-error.js';
import { ThreadNotPausedError } from './thread-not-paused-error.js';
import { UnsupportedStoreError } from './unsupported-store-error.js';

describe('inspector errors', () => {
  it('carry their code, facts and marker', () => {
    const errors = [
      new ResumeNotAllowedError('t', 'read-only'),
      new ThreadNotPausedError('t', 'COMPLETED'),
      new UnsupportedStoreError('redis://x', ['a SQLite file']),
      new StoreMissingError('/tmp/x.db'),
    ];
    expect(errors.map((e) => [e.name, e.code, e.retryable])).toEqual([
      ['ResumeNotAllowedError', 'RESUME_NOT_ALLOWED', false],
      ['ThreadNotPausedError', 'THREAD_NOT_PAUSED', false],
      ['UnsupportedStoreError', 'UNSUPPORTED_STORE', false],
      ['StoreMissingError', 'STORE_MISSING', false],
    ]);
    expect(errors.every((e) => SkeinError.isInstance(e))).toBe(true);
    expect(ResumeNotAllowedError.isInstance(errors[1])).toBe(false);
    expect(errors[0]!.message).toMatch(/read-only/);
    expect(new ResumeNotAllowedError('t', 'no-engine').message).toMatch(/no engine/);
    expect(errors[1]!.details).toEqual({ threadId: 't', status: 'COMPLETED' });
  });
});
