import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LLMMessage } from '@skein/spec';
import { computePassRate, type QueryVerdicts } from '@skein/toolbench';
import { describe, expect, it } from 'vitest';
import { SCORES_FILE } from '../../output/run-files.js';
import { fakeJudge } from '../../test-support/fake-judge.js';
import { scoreOnce } from '../../test-support/score-once.js';
import { scorerInput } from '../../test-support/scorer-input.js';
import { tempFolder } from '../../test-support/temp-folder.js';
import type { ScoreValue } from '../scorer.js';
import { FinishedItem } from '../scorer-input.js';
import { toolBenchPassRate } from '../toolbench-pass-rate.js';
import type { JudgeDetails } from './judge-details.js';
import { majorityScore } from './judge-details.js';
import { toolBenchJudge } from './toolbench-judge.js';

const QUERY = 'What is the weather in Lisbon today?';

/** A ToolBench-style thread: a lookup, then Finish with `finish` as its arguments. */
function thread(finish: Record<string, unknown> | undefined): LLMMessage[] {
  const messages: LLMMessage[] = [
    { role: 'system', content: 'You are AutoGPT…' },
    { role: 'user', content: QUERY },
    {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'weather_for_city', arguments: '{"city":"Lisbon"}' }],
    },
    { role: 'tool', toolCallId: 'c1', name: 'weather_for_city', content: '{"temp_c":24}' },
  ];
  if (finish)
    messages.push({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c2', name: 'Finish', arguments: JSON.stringify(finish) }],
    });
  return messages;
}

const ANSWERED = { return_type: 'give_answer', final_answer: 'It is 24°C and sunny in Lisbon.' };

/** A judge giving the answer verdicts in turn, and `task` whenever the task is asked. */
function judge(answers: string[], task = 'Solvable') {
  let next = 0;
  return fakeJudge((_, prompt) => {
    if (prompt.includes('Tools the assistant had'))
      return JSON.stringify({ reason: 'the tool gives the weather', verdict: task });
    return JSON.stringify({ reason: `round ${next}`, verdict: answers[next++ % answers.length] });
  });
}

const details = (value: ScoreValue) => value.details as JudgeDetails;

describe('toolBenchJudge', () => {
  it('asks the judge each round, keeps every verdict, and scores the majority', async () => {
    const llm = judge(['Solved', 'Unsure', 'Solved']);
    const value = await toolBenchJudge({ llm }).score(
      scorerInput({ item: { query: QUERY }, messages: thread(ANSWERED) }),
    );
    expect(value).toMatchObject({
      score: 1,
      reason: 'Solved by majority of 3 judgements (2 Solved, 1 Unsure)',
    });
    expect(details(value)).toEqual({
      query: QUERY,
      finalAnswer: JSON.stringify(ANSWERED),
      finalStep: expect.stringContaining("'name': 'Finish'"),
      answerStatus: ['Solved', 'Unsure', 'Solved'],
      // The task is asked only in the round whose answer is not Solved.
      taskStatus: [null, 'Solvable', null],
      reasons: ['round 0', 'round 1', 'round 2'],
    });
    expect(llm.requests).toHaveLength(4);
    const prompt = llm.requests[0]!.messages.map((m) => m.content).join('\n');
    expect(prompt).toContain(QUERY);
    expect(prompt).toContain('It is 24°C and sunny in Lisbon.');
    expect(prompt).toContain('weather_for_city');
    expect(llm.requests[0]).toMatchObject({ nodeId: 'score:toolbench-judge', temperature: 0 });
  });

  it('scores a tie between verdicts 0.5, and an Unsolved majority 0', async () => {
    const tie = await toolBenchJudge({ llm: judge(['Solved', 'Unsolved']), rounds: 2 }).score(
      scorerInput({ item: QUERY, messages: thread(ANSWERED) }),
    );
    expect(tie).toMatchObject({
      score: 0.5,
      reason: 'no majority over 2 judgements (1 Solved, 1 Unsolved)',
    });
    const unsolved = await toolBenchJudge({ llm: judge(['Unsolved']), judgeTask: false }).score(
      scorerInput({ item: QUERY, messages: thread(ANSWERED) }),
    );
    expect(unsolved.score).toBe(0);
    expect(details(unsolved).taskStatus).toBeUndefined();
  });

  it('judges no answer whose last step is not Finish, and asks no task verdict for it', async () => {
    const llm = judge(['Solved']);
    const value = await toolBenchJudge({ llm }).score(
      scorerInput({ item: { query: QUERY }, messages: thread(undefined) }),
    );
    expect(value).toMatchObject({
      score: 0,
      reason: 'Unsolved without judging: its last step is not a Finish call',
    });
    expect(details(value)).toMatchObject({
      unsolvedBeforeJudging: 'no-finish',
      answerStatus: ['Unsolved', 'Unsolved', 'Unsolved'],
      taskStatus: [null, null, null],
      reasons: [null, null, null],
    });
    expect(llm.requests).toHaveLength(0);
  });

  it('judges no answer that gave up, but still asks whether the task was solvable', async () => {
    const llm = judge(['Solved'], 'Unsolvable');
    const value = await toolBenchJudge({ llm, rounds: 2 }).score(
      scorerInput({
        item: { query: QUERY },
        messages: thread({ return_type: 'give_up_and_restart' }),
      }),
    );
    expect(details(value)).toMatchObject({
      unsolvedBeforeJudging: 'empty-final-answer',
      answerStatus: ['Unsolved', 'Unsolved'],
      taskStatus: ['Unsolvable', 'Unsolvable'],
    });
    expect(llm.requests).toHaveLength(2);
  });

  it('gives no score, VERDICT_INVALID, when the judge answers with prose', async () => {
    const scorer = toolBenchJudge({ llm: fakeJudge(() => 'Solved, clearly.') });
    const item = new FinishedItem(
      { query: QUERY },
      {
        itemId: 'q',
        status: 'COMPLETED',
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        durationMs: 1,
      },
      'run/q',
      undefined,
    );
    // Without a thread in the store, the scorer cannot read the messages: SCORE_INPUT_MISSING.
    expect(((await scoreOnce(scorer, item)) as { code?: string } | undefined)?.code).toBe(
      'SCORE_INPUT_MISSING',
    );
    const input = scorerInput({ item: { query: QUERY }, messages: thread(ANSWERED) });
    await expect(scorer.score(input)).rejects.toMatchObject({ code: 'VERDICT_INVALID' });
  });
});

describe('majorityScore', () => {
  it.each([
    [['Solved', 'Solved', 'Unsolved'], 1],
    [['Unsure', 'Unsure', 'Solved'], 0.5],
    [['Unsolved', 'Unsure', 'Unsolved'], 0],
    [['Solved', 'Unsolved', 'Unsure'], 0.5],
    [['Solved', 'Unsolved'], 0.5],
  ] as const)('scores %j as %d', (verdicts, score) => {
    expect(majorityScore(verdicts).score).toBe(score);
  });
});

describe('toolBenchPassRate', () => {
  it('gives the figures computePassRate gives for the same verdicts', async () => {
    const folder = tempFolder();
    const cases: [string, string[], LLMMessage[]][] = [
      ['q1', ['Solved', 'Solved', 'Unsure'], thread(ANSWERED)],
      ['q2', ['Unsolved', 'Unsure', 'Unsolved'], thread(ANSWERED)],
      ['q3', ['Solved'], thread(undefined)],
      ['q4', ['Unsure', 'Solved', 'Solved'], thread(ANSWERED)],
    ];
    const lines: string[] = [];
    const expected: QueryVerdicts[] = [];
    for (const [itemId, answers, messages] of cases) {
      const value = await toolBenchJudge({ llm: judge(answers, 'Unsure') }).score(
        scorerInput({ itemId, item: { query: QUERY }, messages }),
      );
      lines.push(JSON.stringify({ itemId, scorer: 'toolbench-judge', ...value }));
      lines.push(JSON.stringify({ itemId, scorer: 'exact-match', score: 1 }));
      const d = details(value);
      expected.push({
        qid: itemId,
        finalStep: d.finalStep,
        finalAnswer: d.finalAnswer,
        answerStatus: new Map(d.answerStatus.map((s, round) => [round, s])),
        taskStatus: new Map(
          d.taskStatus!.flatMap((s, round) => (s === null ? [] : [[round, s] as const])),
        ),
      });
    }
    writeFileSync(join(folder, SCORES_FILE), `${lines.join('\n')}\n{"itemId":"q5","sco`);
    const figures = await toolBenchPassRate(folder, { seed: 7 });
    expect(figures).toEqual(computePassRate(expected, { seed: 7 }));
    // By hand (q3 has no Finish: 0 in every round): round 0 (1 + 0 + 0 + 0.5) / 4, round 1
    // (1 + 0.5 + 0 + 1) / 4, round 2 (0.5 + 0 + 0 + 1) / 4.
    expect(figures.perRound).toEqual([1.5 / 4, 2.5 / 4, 1.5 / 4]);
    expect(figures.solveRate).toBeCloseTo(5.5 / 12, 12);
    expect(figures.passRate).toBeDefined();
  });

  it('has no pass rate without task verdicts, and refuses a judge line without verdicts', async () => {
    const folder = tempFolder();
    const value = await toolBenchJudge({ llm: judge(['Unsolved']), judgeTask: false }).score(
      scorerInput({ item: { query: QUERY }, messages: thread(ANSWERED) }),
    );
    writeFileSync(
      join(folder, SCORES_FILE),
      `${JSON.stringify({ itemId: 'q1', scorer: 'toolbench-judge', ...value })}\n`,
    );
    const figures = await toolBenchPassRate(folder);
    expect(figures.solveRate).toBe(0);
    expect(figures.passRate).toBeUndefined();
    writeFileSync(
      join(folder, SCORES_FILE),
      '{"itemId":"q1","scorer":"toolbench-judge","score":1}\n',
    );
    await expect(toolBenchPassRate(folder)).rejects.toMatchObject({
      code: 'SCORES_LINE_INVALID',
      line: 1,
    });
  });
});
