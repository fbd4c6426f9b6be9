import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { FIXTURES, readFixture } from '../testing/fixtures.js';
import { checkQueryVerdicts, parsePassRateResults, type QueryVerdicts } from './verdicts.js';

const results = readFixture<Record<string, Record<string, unknown>>>(FIXTURES.passRate);

/** The InvalidArgumentError `run` throws (failing the test if it throws nothing or another). */
function thrown(run: () => unknown): InvalidArgumentError {
  try {
    run();
  } catch (error) {
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    return error as InvalidArgumentError;
  }
  throw new Error('expected an InvalidArgumentError');
}

const finish = "Final step: {'name': 'Finish', 'arguments': '{}', 'response': ''}";

describe('parsePassRateResults', () => {
  it('reads the fixture: three queries, three rounds each', () => {
    const queries = parsePassRateResults(results);
    const byQid = new Map(queries.map((q) => [q.qid, q]));
    expect([...byQid.keys()].sort()).toEqual(['1073', '588', '608']);
    for (const qid of ['608', '1073'])
      expect(byQid.get(qid)?.answerStatus).toEqual(
        new Map([
          [0, 'Solved'],
          [1, 'Solved'],
          [2, 'Solved'],
        ]),
      );
    expect(byQid.get('588')?.answerStatus).toEqual(
      new Map([
        [0, 'Unsolved'],
        [1, 'Unsolved'],
        [2, 'Unsolved'],
      ]),
    );
    expect(byQid.get('588')?.finalStep).toBe(results['588']?.final_step);
    for (const query of queries) {
      expect(query.taskStatus).toBeUndefined();
      expect(query.recordedCounts).toBeUndefined();
      expect(query.finalAnswer).toBeUndefined();
    }
  });

  it("takes final answers from the converted answers, and the earlier evaluator's fields", () => {
    const [query] = parsePassRateResults(
      {
        '7': {
          final_step: finish,
          is_solved: { '0': 'AnswerStatus.Unsure', '1': 'AnswerStatus.Unsolved' },
          passed: 1,
          failed: 1,
          task_solvable: 'TaskStatus.Unsure',
        },
      },
      { finalAnswers: { '7': '{"return_type": "give_answer", "final_answer": "x"}' } },
    );
    expect(query).toEqual({
      qid: '7',
      finalStep: finish,
      finalAnswer: '{"return_type": "give_answer", "final_answer": "x"}',
      answerStatus: new Map([
        [0, 'Unsure'],
        [1, 'Unsolved'],
      ]),
      recordedCounts: { passed: 1, failed: 1 },
    });
  });

  it('reads per-round task verdicts', () => {
    const [query] = parsePassRateResults({
      '7': {
        final_step: finish,
        is_solved: { '0': 'AnswerStatus.Unsolved' },
        task_solvable: { '0': 'TaskStatus.Unsolvable' },
      },
    });
    expect(query?.taskStatus).toEqual(new Map([[0, 'Unsolvable']]));
  });

  it.each([
    [
      'an unknown verdict',
      { '9': { final_step: finish, is_solved: { '0': 'AnswerStatus.Maybe' } } },
      '9',
      'is_solved',
      'results["9"].is_solved["0"]',
    ],
    [
      'a verdict without its enum prefix',
      { '9': { final_step: finish, is_solved: { '1': 'Solved' } } },
      '9',
      'is_solved',
      'results["9"].is_solved["1"]',
    ],
    [
      'a missing is_solved',
      { '9': { final_step: finish } },
      '9',
      'is_solved',
      'results["9"].is_solved',
    ],
    [
      'is_solved as one string (the first ToolBench file)',
      { '9': { final_step: finish, is_solved: 'AnswerStatus.Solved' } },
      '9',
      'is_solved',
      'results["9"].is_solved',
    ],
    [
      'a round key Python could not have written',
      { '9': { final_step: finish, is_solved: { '01': 'AnswerStatus.Solved' } } },
      '9',
      'is_solved',
      'results["9"].is_solved["01"]',
    ],
    [
      'a missing final_step',
      { '9': { is_solved: { '0': 'AnswerStatus.Solved' } } },
      '9',
      'final_step',
      'results["9"].final_step',
    ],
    [
      'an unknown task verdict',
      {
        '9': {
          final_step: finish,
          is_solved: { '0': 'AnswerStatus.Solved' },
          task_solvable: { '0': 'TaskStatus.Easy' },
        },
      },
      '9',
      'task_solvable',
      'results["9"].task_solvable["0"]',
    ],
    [
      'a count that is not one',
      { '9': { final_step: finish, is_solved: {}, passed: 2, failed: -1 } },
      '9',
      'failed',
      'results["9"].failed',
    ],
    [
      'passed without failed',
      { '9': { final_step: finish, is_solved: {}, passed: 2 } },
      '9',
      'failed',
      'results["9"].failed',
    ],
  ])('refuses %s, naming the query and the field', (_, input, qid, field, argument) => {
    // A good query first: the whole file is refused, not just the bad entry.
    const error = thrown(() =>
      parsePassRateResults({ '1': { final_step: finish, is_solved: {} }, ...input }),
    );
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.argument).toBe(argument);
    expect(error.details).toMatchObject({ qid, field });
    expect(error.message).toContain(argument);
  });

  it('refuses what is not a results object', () => {
    for (const input of [null, [], 'x', 3])
      expect(thrown(() => parsePassRateResults(input)).argument).toBe('results');
    expect(thrown(() => parsePassRateResults({ '1': 'x' })).details).toMatchObject({ qid: '1' });
    expect(
      thrown(() => parsePassRateResults({}, { finalAnswers: { '1': 2 as unknown as string } }))
        .details,
    ).toMatchObject({ qid: '1' });
  });
});

describe('checkQueryVerdicts', () => {
  const good: QueryVerdicts = {
    qid: 'a',
    finalStep: finish,
    answerStatus: new Map([[0, 'Solved']]),
  };

  it('accepts what parsePassRateResults returns', () => {
    expect(() => checkQueryVerdicts(parsePassRateResults(results))).not.toThrow();
    expect(() => checkQueryVerdicts([good])).not.toThrow();
  });

  it.each([
    ['a repeated query id', [good, { ...good }], 'qid'],
    [
      'an unknown answer verdict',
      [{ ...good, answerStatus: new Map([[0, 'Passed']]) }],
      'answerStatus',
    ],
    ['a negative round', [{ ...good, answerStatus: new Map([[-1, 'Solved']]) }], 'answerStatus'],
    [
      'answer verdicts that are not a Map',
      [{ ...good, answerStatus: { 0: 'Solved' } }],
      'answerStatus',
    ],
    ['an unknown task verdict', [{ ...good, taskStatus: new Map([[0, 'Solved']]) }], 'taskStatus'],
    ['a final answer that is not text', [{ ...good, finalAnswer: 3 }], 'finalAnswer'],
    [
      'recorded counts that are not counts',
      [{ ...good, recordedCounts: { passed: 1.5, failed: 0 } }],
      'recordedCounts',
    ],
  ])('refuses %s, naming the query and the field', (_, queries, field) => {
    const error = thrown(() => checkQueryVerdicts(queries));
    expect(error.details).toMatchObject({ qid: 'a', field });
  });
});
