import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScoreError } from '../errors/score-error.js';
import { type ItemResult, ZERO_USAGE } from '../output/item-result.js';
import { type ScorerOutcome, scoreItem } from './run-scorer.js';
import type { Scorer } from './scorer.js';
import { FinishedItem } from './scorer-input.js';

const result: ItemResult = {
  itemId: 'q1',
  threadId: 'run/q1',
  status: 'COMPLETED',
  output: 'ok',
  usage: ZERO_USAGE,
  durationMs: 1,
};
const item = (signal?: AbortSignal) =>
  new FinishedItem({ expected: 'ok' }, result, 'run/q1', undefined, signal);
const scorer = (name: string, score: Scorer['score']): Scorer => ({ name, score });

/** Scores the item with `scorers`, collecting the outcomes by scorer as they are recorded. */
function score(scorers: Scorer[], timeoutMs = 1_000, signal?: AbortSignal) {
  const outcomes: Record<string, ScorerOutcome> = {};
  const waiting = scoreItem(scorers, item(signal), timeoutMs, signal, (_, name, outcome) => {
    outcomes[name] = outcome;
  });
  return { outcomes, waiting };
}

const never = () => new Promise<never>(() => undefined);

describe('scoreItem', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('records scorers that answer at once at once, with no timer and no promise', () => {
    vi.useFakeTimers();
    const value = { score: 1, reason: 'same', details: { n: 1 } };
    const { outcomes, waiting } = score([
      scorer('s', () => value),
      scorer('t', () => ({ score: 0 })),
    ]);
    expect(waiting).toBeUndefined();
    expect(outcomes).toEqual({ s: value, t: { score: 0 } });
    expect(vi.getTimerCount()).toBe(0);
  });

  it.each([
    ['a score above 1', { score: 1.5 }, 'not a number from 0 to 1 (1.5)'],
    ['NaN', { score: Number.NaN }, 'not a number from 0 to 1'],
    ['no object', 0.5, 'no { score } object'],
    ['a reason that is not text', { score: 1, reason: 3 }, 'reason is not a string'],
    ['details JSON cannot carry', { score: 1, details: { n: 10n } }, 'details.n is a BigInt'],
  ])('makes %s SCORE_INVALID', (_, value, problem) => {
    const { outcomes } = score([scorer('s', () => value as never)]);
    expect(outcomes.s).toBeInstanceOf(ScoreError);
    expect(outcomes.s).toMatchObject({ code: 'SCORE_INVALID', scorer: 's', itemId: 'q1' });
    expect((outcomes.s as ScoreError).message).toContain(problem);
  });

  it('makes a throw or a rejection SCORER_FAILED, the error as cause', async () => {
    const boom = new TypeError('cannot read x');
    const { outcomes, waiting } = score([
      scorer('throws', () => {
        throw boom;
      }),
      scorer('rejects', async () => {
        throw boom;
      }),
    ]);
    expect(outcomes.throws).toMatchObject({ code: 'SCORER_FAILED', cause: boom });
    await waiting;
    expect((outcomes.rejects as ScoreError).message).toBe('Scorer rejects threw: cannot read x');
  });

  it('gives the scorers still running SCORER_TIMEOUT at the limit, the others their score', async () => {
    vi.useFakeTimers();
    let seen: AbortSignal | undefined;
    const { outcomes, waiting } = score(
      [
        scorer('slow', (input) => {
          seen = input.signal;
          return never();
        }),
        scorer(
          'late',
          () => new Promise((resolve) => setTimeout(() => resolve({ score: 1 }), 3_000)),
        ),
        scorer('now', () => ({ score: 0.5 })),
      ],
      5_000,
    );
    expect(outcomes.now).toEqual({ score: 0.5 });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(outcomes.late).toEqual({ score: 1 });
    await vi.advanceTimersByTimeAsync(1_999);
    expect(seen?.aborted).toBe(false);
    expect(outcomes.slow).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(outcomes.slow).toMatchObject({
      code: 'SCORER_TIMEOUT',
      scorer: 'slow',
      timeoutMs: 5_000,
    });
    expect(seen?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('records nothing, no score and no error, for the scorers running when the run stops', async () => {
    vi.useFakeTimers();
    const run = new AbortController();
    let seen: AbortSignal | undefined;
    const { outcomes, waiting } = score(
      [
        scorer('slow', (input) => {
          seen = input.signal;
          return never();
        }),
      ],
      5_000,
      run.signal,
    );
    run.abort();
    await waiting;
    expect(outcomes).toEqual({});
    expect(seen?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});
