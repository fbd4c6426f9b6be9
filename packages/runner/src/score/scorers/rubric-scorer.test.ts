import { InvalidArgumentError } from '@skein/spec';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScoreError } from '../../errors/score-error.js';
import { type ItemResult, ZERO_USAGE } from '../../output/item-result.js';
import { fakeJudge, silentJudge } from '../../test-support/fake-judge.js';
import { scoreOnce } from '../../test-support/score-once.js';
import { scorerInput } from '../../test-support/scorer-input.js';
import { FinishedItem } from '../scorer-input.js';
import { rubricScorer } from './rubric-scorer.js';

const RUBRIC = 'The answer names the capital of the country asked about.';

function finished(output: unknown): FinishedItem {
  const result: ItemResult = {
    itemId: 'fr',
    threadId: 'run/fr',
    status: 'COMPLETED',
    output,
    usage: ZERO_USAGE,
    durationMs: 1,
  };
  return new FinishedItem({ country: 'France' }, result, 'run/fr', undefined);
}

describe('rubricScorer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the rubric, the request and the answer, and stores the prompt and the verdict', async () => {
    const llm = fakeJudge(() => '{"reason": "Paris is the capital of France.", "score": 1}');
    const scorer = rubricScorer({ llm, rubric: RUBRIC, model: 'judge-1' });
    const value = await scorer.score(scorerInput({ item: { country: 'France' }, output: 'Paris' }));
    expect(value.score).toBe(1);
    expect(value.reason).toBe('Paris is the capital of France.');
    const details = value.details as {
      prompt: { role: string; content: string }[];
      verdict: unknown;
      answer: string;
    };
    expect(details.verdict).toEqual({ reason: 'Paris is the capital of France.', score: 1 });
    expect(details.prompt.map((m) => m.role)).toEqual(['system', 'user']);
    expect(details.prompt[1]!.content).toContain(RUBRIC);
    expect(details.prompt[1]!.content).toContain('"country": "France"');
    expect(details.prompt[1]!.content).toContain('Answer to grade:\nParis');
    const [request] = llm.requests;
    expect(request).toMatchObject({
      threadId: 'run/q1',
      nodeId: 'score:rubric',
      model: 'judge-1',
      temperature: 0,
      tools: [],
      responseFormat: { type: 'json', name: 'verdict' },
    });
    expect(request!.messages).toEqual(details.prompt);
  });

  it('divides the grade by the scale, and shows a reference when there is one', async () => {
    const llm = fakeJudge(() => '```json\n{"reason": "mostly", "score": 3}\n```');
    const scorer = rubricScorer({
      llm,
      rubric: RUBRIC,
      scale: 4,
      reference: (input) => (input.item as { capital: string }).capital,
    });
    const value = await scorer.score(scorerInput({ item: { capital: 'Paris' }, output: 'Paris?' }));
    expect(value.score).toBe(0.75);
    expect(JSON.stringify(value.details)).toContain('Reference answer:\\nParis');
    expect(JSON.stringify(value.details)).toContain('from 0 to 4');
  });

  it.each([
    ['prose', 'I would say it passes.'],
    ['a grade out of range', '{"reason": "great", "score": 7}'],
    ['a verdict with other fields', '{"reason": "ok", "score": 1, "confidence": 0.9}'],
    ['nothing', ''],
  ])('gives no score, a typed VERDICT_INVALID, when the model answers %s', async (_, answer) => {
    const scorer = rubricScorer({ llm: fakeJudge(() => answer), rubric: RUBRIC });
    const outcome = await scoreOnce(scorer, finished('Paris'));
    expect(outcome).toBeInstanceOf(ScoreError);
    expect(outcome).toMatchObject({ code: 'VERDICT_INVALID', scorer: 'rubric', retryable: true });
    expect((outcome as ScoreError).answer).toBe(answer);
  });

  it('gives no score, SCORER_FAILED with the cause, when the model throws', async () => {
    const failure = new Error('provider down');
    const scorer = rubricScorer({
      llm: fakeJudge(() => {
        throw failure;
      }),
      rubric: RUBRIC,
    });
    const outcome = await scoreOnce(scorer, finished('Paris'));
    expect(outcome).toMatchObject({ code: 'SCORER_FAILED', itemId: 'fr', cause: failure });
    expect((outcome as ScoreError).message).toContain('provider down');
  });

  it('gives no score after its time limit when the model never answers, and aborts its call', async () => {
    vi.useFakeTimers();
    const llm = silentJudge();
    const scorer = rubricScorer({ llm, rubric: RUBRIC });
    const outcome = scoreOnce(scorer, finished('Paris'));
    let settled = false;
    void outcome.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const ended = await outcome;
    expect(ended).toMatchObject({ code: 'SCORER_TIMEOUT', timeoutMs: 60_000, retryable: true });
    // The model call was given the scorer's signal, now aborted with the timeout.
    expect(llm.requests).toHaveLength(1);
    expect(llm.signals[0]?.aborted).toBe(true);
    expect(llm.signals[0]?.reason).toMatchObject({ code: 'SCORER_TIMEOUT', itemId: 'fr' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('refuses bad options when it is made', () => {
    const llm = fakeJudge(() => '');
    expect(() => rubricScorer({ llm, rubric: '' })).toThrow(InvalidArgumentError);
    expect(() => rubricScorer({ llm, rubric: RUBRIC, scale: 0 })).toThrow('scale');
    expect(() => rubricScorer({ llm: {} as never, rubric: RUBRIC })).toThrow('LLMClient');
  });
});
