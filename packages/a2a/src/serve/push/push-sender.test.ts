import type { TaskPushNotificationConfig } from '@a2a-js/sdk';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { A2APushError } from './push-error.js';
import { deliverPush } from './push-sender.js';
import { retrySchedule } from './retry-schedule.js';

const config: TaskPushNotificationConfig = {
  tenant: '',
  id: 'c1',
  taskId: 'ctx~t1',
  url: 'https://hooks.example.com/a2a',
  token: 'tok-1',
  authentication: { scheme: 'Bearer', credentials: 'secret' },
};

/** A fetch that answers each POST with the next status (a number) or fails it (an Error). */
function scriptedFetch(answers: readonly (number | Error)[]) {
  const calls: { url: string; init: RequestInit; at: number }[] = [];
  const fetch = async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {}, at: Date.now() });
    const answer = answers[calls.length - 1] ?? 200;
    if (answer instanceof Error) throw answer;
    const headers = answer === 429 ? { 'retry-after': '5' } : undefined;
    return new Response(null, { status: answer, headers });
  };
  return { calls, fetch: fetch as typeof globalThis.fetch };
}

/** Delivers with fake timers, running them out: the waits are read from the fake clock. */
async function deliver(answers: readonly (number | Error)[], attempts = 5) {
  const { calls, fetch } = scriptedFetch(answers);
  const schedule = retrySchedule({ attempts });
  const outcome = deliverPush('ctx~t1', config, '{"task":{}}', { schedule, fetch }).then(
    () => undefined,
    (error: unknown) => error,
  );
  await vi.runAllTimersAsync();
  const start = calls[0]?.at ?? 0;
  return { error: await outcome, calls, waits: calls.map((c) => c.at - start) };
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('delivering one push notification', () => {
  it('POSTs the body with the content type, the token header and the authentication', async () => {
    const { error, calls } = await deliver([200]);
    expect(error).toBeUndefined();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe(config.url);
    expect(calls[0]?.init).toMatchObject({
      method: 'POST',
      body: '{"task":{}}',
      redirect: 'manual',
      headers: {
        'content-type': 'application/a2a+json',
        'X-A2A-Notification-Token': 'tok-1',
        authorization: 'Bearer secret',
      },
    });
  });

  it('retries 5xx and network errors with exponential backoff until one is taken', async () => {
    const { error, waits } = await deliver([500, new TypeError('fetch failed'), 503, 200]);
    expect(error).toBeUndefined();
    expect(waits).toEqual([0, 1000, 3000, 7000]);
  });

  it('waits as long as a 429 asks (Retry-After), and retries 408', async () => {
    const { error, waits } = await deliver([429, 408, 204]);
    expect(error).toBeUndefined();
    expect(waits).toEqual([0, 5000, 7000]);
  });

  it('does not retry a 4xx other than 408 and 429, nor a redirect', async () => {
    for (const status of [400, 401, 404, 410, 302]) {
      const { error, calls } = await deliver([status]);
      expect(calls, String(status)).toHaveLength(1);
      expect(A2APushError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'A2A_PUSH_UNDELIVERED',
        taskId: 'ctx~t1',
        configId: 'c1',
        httpStatus: status,
        attempts: 1,
        retryable: false,
      });
    }
  });

  it('gives up after the attempts, with the last status', async () => {
    const { error, calls, waits } = await deliver([500, 500, 500, 500], 3);
    expect(calls).toHaveLength(3);
    expect(waits).toEqual([0, 1000, 3000]);
    expect(error).toMatchObject({ httpStatus: 500, attempts: 3 });
    expect((error as Error).message).toMatch(/answered 500, and 3 tries failed/);
  });
});
