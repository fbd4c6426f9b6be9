import type { LLMClient, LLMRequest, LLMResponse, LLMStreamEvent } from '@skein/spec';
import { InvalidArgumentError } from '@skein/spec';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { limitModel } from './limit-model.js';
import { RateLimiter } from './rate-limiter.js';

/** The longest delay `setTimeout` takes; Node fires a longer one after 1 ms, with a warning. */
const MAX_TIMER_MS = 2 ** 31 - 1;

// Fake timers never warn (they shorten an overlong delay to 1 ms silently), so each test also
// records the delays asked of `setTimeout`: a delay over the limit is what makes Node warn.
let warnings: string[];
let timeouts: MockInstance<typeof setTimeout>;
const onWarning = (warning: Error): void => {
  warnings.push(`${warning.name}: ${warning.message}`);
};

beforeEach(() => {
  vi.useFakeTimers();
  warnings = [];
  process.on('warning', onWarning);
  timeouts = vi.spyOn(globalThis, 'setTimeout');
});

afterEach(() => {
  process.off('warning', onWarning);
  vi.restoreAllMocks();
  vi.useRealTimers();
});

function delays(): number[] {
  return timeouts.mock.calls.map((call) => Number(call[1] ?? 0));
}

function expectNoOverflow(): void {
  expect(delays().filter((ms) => !(ms <= MAX_TIMER_MS))).toEqual([]);
  expect(warnings.filter((w) => w.startsWith('TimeoutOverflowWarning'))).toEqual([]);
}

function settled(promise: Promise<unknown>): () => boolean {
  let done = false;
  void promise.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  return () => done;
}

const request: LLMRequest = {
  threadId: 't',
  nodeId: 'n',
  messages: [{ role: 'user', content: 'hello' }],
  tools: [],
};

const answer: LLMResponse = {
  message: { role: 'assistant', content: 'hi' },
  usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
  finishReason: 'stop',
};

/** A model answering 429 with `retryAfterMs` the first `refusals` times. */
function refusingModel(refusals: number, retryAfterMs: number): LLMClient & { calls: number } {
  return {
    name: 'refusing',
    calls: 0,
    async generate() {
      this.calls++;
      if (this.calls <= refusals)
        throw Object.assign(new Error('429 Too Many Requests'), { status: 429, retryAfterMs });
      return answer;
    },
  };
}

describe('waits longer than a timer can hold', () => {
  it('refuses a requests-per-minute budget whose wait for one request no timer can hold', () => {
    for (const rpm of [1e-7, 60_000 / MAX_TIMER_MS / 2]) {
      const error = (() => {
        try {
          new RateLimiter({ rpm });
        } catch (e) {
          return e;
        }
      })();
      expect(InvalidArgumentError.isInstance(error), String(rpm)).toBe(true);
      expect((error as InvalidArgumentError).code).toBe('INVALID_ARGUMENT');
      expect((error as InvalidArgumentError).argument).toBe('rpm');
    }
    expect(() => new RateLimiter({ tpm: 1e-9 })).toThrow('tpm');
    // The smallest allowed budget still waits in one timer.
    expect(() => new RateLimiter({ rpm: 60_000 / (MAX_TIMER_MS - 1) })).not.toThrow();
  });

  it('waits out a 429 pause of 10^12 ms in timer-sized pieces, not a 1 ms loop', async () => {
    const limiter = new RateLimiter({ rpm: 60 });
    limiter.pauseFor(1e12);
    const done = settled(limiter.acquire(1));
    await vi.advanceTimersByTimeAsync(1_000);
    expectNoOverflow();
    expect(timeouts.mock.calls.length).toBeLessThanOrEqual(1);
    expect(done()).toBe(false);
    await vi.advanceTimersByTimeAsync(1e12 - 2_000);
    expect(done()).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(done()).toBe(true);
    expectNoOverflow();
  });

  it('waits out a token debt longer than a timer in pieces', async () => {
    const limiter = new RateLimiter({ tpm: 1 });
    await limiter.acquire(1_000_000);
    // The next request waits until a million tokens are paid back at one a minute.
    const done = settled(limiter.acquire(1));
    await vi.advanceTimersByTimeAsync(1_000);
    expectNoOverflow();
    expect(done()).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000_000 * 60_000);
    expect(done()).toBe(true);
    expectNoOverflow();
  });

  it('caps a retry-after of 10^12 ms at maxRetryAfterMs, saying so with a warning event', async () => {
    const model = refusingModel(1, 1e12);
    const limiter = new RateLimiter({ rpm: 6_000 });
    const events: LLMStreamEvent[] = [];
    const done = settled(
      limitModel(model, limiter).generate(request, { onEvent: (e) => events.push(e) }),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expectNoOverflow();
    expect(done()).toBe(false);
    expect(events).toEqual([
      {
        type: 'warning',
        code: 'RETRY_AFTER_CAPPED',
        message: expect.stringContaining('waiting 600000 ms') as string,
        details: { retryAfterMs: 1e12, waitMs: 600_000, model: 'refusing' },
      },
    ]);
    // The default cap: ten minutes, for this call and for everyone drawing on the budget.
    await vi.advanceTimersByTimeAsync(600_000 - 1_000);
    expect(done()).toBe(true);
    expect(model.calls).toBe(2);
    expectNoOverflow();
  });

  it('takes its own cap, and refuses limit options no timer or count can hold', async () => {
    const model = refusingModel(1, 5_000);
    const events: LLMStreamEvent[] = [];
    const done = settled(
      limitModel(model, new RateLimiter({ rpm: 6_000 }), { maxRetryAfterMs: 2_000 }).generate(
        request,
        { onEvent: (e) => events.push(e) },
      ),
    );
    await vi.advanceTimersByTimeAsync(2_000);
    expect(done()).toBe(true);
    expect(events).toMatchObject([{ code: 'RETRY_AFTER_CAPPED', details: { waitMs: 2_000 } }]);
    for (const [option, value] of [
      ['maxRetryAfterMs', 2 ** 31],
      ['backoffMs', 1.5],
      ['maxBackoffMs', Number.POSITIVE_INFINITY],
      ['maxRateLimitRetries', -1],
    ] as const) {
      const error = (() => {
        try {
          limitModel(model, new RateLimiter(), { [option]: value });
        } catch (e) {
          return e;
        }
      })();
      expect(InvalidArgumentError.isInstance(error), option).toBe(true);
      expect((error as InvalidArgumentError).argument).toBe(`limitOptions.${option}`);
    }
  });
});
