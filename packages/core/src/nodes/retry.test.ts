import { SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import { RetryExhausted, withRetry } from './retry.js';

const signal = new AbortController().signal;
const quick = { maxAttempts: 3, initialDelayMs: 1 };

async function attemptsFor(error: unknown, policy = quick): Promise<number> {
  let calls = 0;
  const outcome = await withRetry(
    async () => {
      calls++;
      throw error;
    },
    policy,
    signal,
  ).catch((e: unknown) => e);
  expect(outcome).toBeInstanceOf(RetryExhausted);
  expect((outcome as RetryExhausted).attempts).toBe(calls);
  expect((outcome as RetryExhausted).lastError).toBe(error);
  return calls;
}

describe('withRetry', () => {
  it('tries an error that cannot succeed exactly once, a transient one per the policy', async () => {
    const badRequest = new SkeinError('PROVIDER_REQUEST_FAILED', 'HTTP 400', { retryable: false });
    const unavailable = new SkeinError('PROVIDER_REQUEST_FAILED', 'HTTP 503', { retryable: true });
    expect(await attemptsFor(badRequest)).toBe(1);
    expect(await attemptsFor(unavailable)).toBe(3);
    expect(await attemptsFor(new Error('socket hang up'))).toBe(3);
    expect(await attemptsFor({ retryable: false })).toBe(1);
    expect(await attemptsFor(unavailable, { maxAttempts: 1, initialDelayMs: 0 })).toBe(1);
  });

  it('retries an attempt that throws instead of rejecting, and passes the first success through', async () => {
    let calls = 0;
    const flaky = (): Promise<string> => {
      calls++;
      if (calls < 3) throw new Error('socket hang up');
      return Promise.resolve(`ok after ${calls}`);
    };
    const retried: number[] = [];
    expect(await withRetry(flaky, quick, signal, (_e, n) => retried.push(n))).toBe('ok after 3');
    expect(retried).toEqual([1, 2]);
    expect(await withRetry(() => Promise.resolve('first'), quick, signal)).toBe('first');
  });

  it('refuses a policy it cannot honour before the first attempt', async () => {
    let calls = 0;
    const attempt = async () => {
      calls++;
      return 'ok';
    };
    const bad: [Record<string, unknown>, RegExp][] = [
      [
        { maxAttempts: 1e9, initialDelayMs: 0 },
        /^config.retry.maxAttempts of node "ask" must be an integer from 1 to/,
      ],
      [{ maxAttempts: Number.NaN }, /maxAttempts/],
      [{ maxAttempts: 0 }, /maxAttempts/],
      [{ initialDelayMs: -1 }, /initialDelayMs/],
      [{ maxDelayMs: 2 ** 31 }, /maxDelayMs/],
    ];
    for (const [policy, message] of bad)
      await expect(
        withRetry(attempt, policy, signal, undefined, 'node "ask"'),
      ).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(message),
      });
    await expect(withRetry(attempt, 'often' as never, signal)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(calls).toBe(0);
  });
});

describe('an LLM node', () => {
  function run(error: Error) {
    const llm = new ScriptedLLMClient([{ content: 'ok' }]).failNext(error, 5);
    const engine = new SkeinEngine({ llm });
    engine.registerWorkflow(
      new WorkflowBuilder('w', '1')
        .start()
        .llm('ask', { prompt: 'hi', retry: { initialDelayMs: 1 } })
        .end('end')
        .chain('start', 'ask', 'end')
        .build(),
    );
    return { llm, done: engine.run('w') };
  }

  it('makes exactly one request for an error retrying cannot fix', async () => {
    const { llm, done } = run(new SkeinError('HTTP_400', 'invalid conversation'));
    const { result } = await done;
    expect(llm.calls).toHaveLength(1);
    expect(result.error).toMatchObject({ code: 'LLM_CALL_FAILED', retryable: false });
    expect(result.error!.message).toMatch(/after 1 attempt \(HTTP_400\)/);
  });

  it('makes the default three requests for a transient error, and says it may succeed later', async () => {
    const { llm, done } = run(new SkeinError('HTTP_503', 'unavailable', { retryable: true }));
    const { result } = await done;
    expect(llm.calls).toHaveLength(3);
    expect(result.error).toMatchObject({ code: 'LLM_CALL_FAILED', retryable: true });
  });
});
