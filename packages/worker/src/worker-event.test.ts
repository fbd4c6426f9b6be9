import { describe, expect, expectTypeOf, it } from 'vitest';
import { FORWARDED_EVENTS, type ForwardedEventName } from './worker-event.js';

describe('FORWARDED_EVENTS', () => {
  it('names every thread-scoped engine event once', () => {
    expectTypeOf<(typeof FORWARDED_EVENTS)[number]>().toEqualTypeOf<ForwardedEventName>();
    expect(new Set(FORWARDED_EVENTS).size).toBe(FORWARDED_EVENTS.length);
  });
});
