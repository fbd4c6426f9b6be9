import { describe, expect, it } from 'vitest';
import { isAborted } from './is-aborted.js';

describe('isAborted', () => {
  it('is false without a signal or before an abort, true after', () => {
    const controller = new AbortController();
    expect(isAborted(undefined)).toBe(false);
    expect(isAborted(controller.signal)).toBe(false);
    controller.abort();
    expect(isAborted(controller.signal)).toBe(true);
    expect(isAborted(AbortSignal.abort())).toBe(true);
  });
});
