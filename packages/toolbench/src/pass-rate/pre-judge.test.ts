import { describe, expect, it } from 'vitest';
import { type ConvertedEntry, FIXTURES, readFixture } from '../testing/fixtures.js';
import { unsolvedBeforeJudging } from './pre-judge.js';
import { parsePassRateResults } from './verdicts.js';

const finish = "Final step: {'name': 'Finish', 'arguments': '{}', 'response': ''}";

describe('unsolvedBeforeJudging', () => {
  it('finds the fixture query whose last step is not Finish (588), and only it', () => {
    const converted = readFixture<Record<string, ConvertedEntry>>(FIXTURES.converted);
    const finalAnswers = Object.fromEntries(
      Object.entries(converted).map(([qid, entry]) => [qid, entry.answer.final_answer]),
    );
    const queries = parsePassRateResults(readFixture(FIXTURES.passRate), { finalAnswers });
    const reasons = Object.fromEntries(queries.map((q) => [q.qid, unsolvedBeforeJudging(q)]));
    // 588 has an empty final answer too; the Finish check comes first (eval_pass_rate.py L52).
    expect(reasons).toEqual({ '588': 'no-finish', '608': undefined, '1073': undefined });
    expect(finalAnswers['588']).toBe('');
  });

  it.each([
    ['no tool step at all', '', undefined, 'no-finish'],
    [
      'a last step calling another function',
      "Final step: {'name': 'search_for_x', 'arguments': '{}', 'response': ''}",
      undefined,
      'no-finish',
    ],
    ['Finish, final answer unknown', finish, undefined, undefined],
    ['Finish, an empty final answer', finish, '', 'empty-final-answer'],
    ['Finish, giving up', finish, '{"return_type": "give_up_and_restart"}', 'give-up-and-restart'],
    ['Finish, an answer', finish, '{"return_type": "give_answer", "final_answer": "x"}', undefined],
  ])('%s', (_, finalStep, finalAnswer, expected) => {
    expect(
      unsolvedBeforeJudging({ finalStep, ...(finalAnswer === undefined ? {} : { finalAnswer }) }),
    ).toBe(expected);
  });
});
