import { InvalidArgumentError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { FIXTURES, readFixture } from '../testing/fixtures.js';
import { formatSolveRate } from './format.js';
import { computePassRate } from './pass-rate.js';
import { parsePassRateResults, type QueryVerdicts } from './verdicts.js';

const finish = "Final step: {'name': 'Finish', 'arguments': '{}', 'response': ''}";
const noFinish = "Final step: {'name': 'search_for_x', 'arguments': '{}', 'response': ''}";

function rounds<S>(...statuses: (S | undefined)[]): Map<number, S> {
  const map = new Map<number, S>();
  statuses.forEach((status, round) => {
    if (status !== undefined) map.set(round, status);
  });
  return map;
}

describe('computePassRate on the fixture (virtual_chatgpt_cot, G1_instruction)', () => {
  const queries = parsePassRateResults(readFixture(FIXTURES.passRate));

  // By hand. The file was written with `--evaluate_times 3` (run_pass_rate.sh): rounds 0, 1, 2.
  // - 588: the last step calls list_artist_concerts_for_theclique, not Finish: Unsolved without
  //   judging, recorded Unsolved in rounds 0, 1, 2.
  // - 608 and 1073: end with Finish; Solved in rounds 0, 1 and 2.
  // Each round: (0 + 1 + 1) / 3 queries = 2/3. Solve rate: mean(2/3, 2/3, 2/3) = 6 / 9 = 2/3,
  // std 0: printed "Solve rate: 66.7% Std: 0.0%".
  // Pass rate: 608 and 1073 pass every round (Solved → Passed, no task verdict needed), 3 passed
  // to 0; 588 fails every round (no Finish), 0 to 3. 2 of 3 queries pass: 2/3, no coin.
  it('gives the numbers the rule gives, exactly', () => {
    const figures = computePassRate(queries);
    expect(figures.queries).toBe(3);
    expect(figures.evaluateTimes).toBe(3);
    expect(figures.perRound).toEqual([2 / 3, 2 / 3, 2 / 3]);
    expect(figures.solveRate).toBe(2 / 3);
    expect(figures.std).toBe(0);
    expect(formatSolveRate(figures)).toBe('66.7±0.0');
    expect(figures.passRate).toBe(2 / 3);
    expect(figures.passRateCoins).toBe(0);
    expect(figures.undecided).toEqual([]);
    expect(figures.missing).toEqual([]);
    const perQuery = Object.fromEntries(figures.perQuery.map((q) => [q.qid, q]));
    expect(perQuery['588']).toMatchObject({
      unsolvedBeforeJudging: 'no-finish',
      solvePoints: 0,
      pass: { passed: 0, failed: 3, passes: false, label: 'failed', from: 'pre-judge' },
    });
    for (const qid of ['608', '1073'])
      expect(perQuery[qid]).toEqual({
        qid,
        unsolvedBeforeJudging: undefined,
        solvePoints: 3,
        pass: { passed: 3, failed: 0, passes: true, label: 'passed', coins: 0, from: 'verdicts' },
      });
  });

  it('scores the rounds asked for: a fourth round nobody has scores 0, a second is enough', () => {
    // Rounds 0-3: per round 2/3, 2/3, 2/3, 0. Mean 6 / 12 = 1/2. Deviations 1/6 (×3), −1/2:
    // variance (3/36 + 1/4) / 4 = 1/12, std √(1/12). The pass rate counts the rounds recorded.
    const four = computePassRate(queries, { evaluateTimes: 4 });
    expect(four.perRound).toEqual([2 / 3, 2 / 3, 2 / 3, 0]);
    expect(four.solveRate).toBe(1 / 2);
    expect(four.std).toBe(Math.sqrt(1 / 12));
    expect(four.passRate).toBe(2 / 3);
    expect(four.missing.map((m) => `${m.qid}@${m.round}`).sort()).toEqual([
      '1073@3',
      '588@3',
      '608@3',
    ]);
    const two = computePassRate(queries, { evaluateTimes: 2 });
    expect([two.perRound, two.solveRate, two.std]).toEqual([[2 / 3, 2 / 3], 2 / 3, 0]);
  });
});

describe('computePassRate on verdicts worked by hand', () => {
  // Five queries, rounds 0-2, with task verdicts where the pass rate needs them.
  const queries: QueryVerdicts[] = [
    {
      qid: 'A',
      finalStep: finish,
      answerStatus: rounds('Solved', 'Solved', 'Unsure'),
      taskStatus: rounds(undefined, undefined, 'Unsolvable'),
    },
    {
      qid: 'B',
      finalStep: finish,
      answerStatus: rounds('Unsure', 'Unsolved', 'Solved'),
      taskStatus: rounds('Unsolvable', 'Solvable'),
    },
    {
      qid: 'C',
      finalStep: finish,
      answerStatus: rounds('Unsolved', 'Unsolved', 'Unsolved'),
      taskStatus: rounds('Solvable', 'Unsolvable', 'Solvable'),
    },
    // No Finish: its recorded verdicts (which the reference would never have written) do not count.
    { qid: 'D', finalStep: noFinish, answerStatus: rounds('Solved', 'Solved', 'Solved') },
    // Round 2 was never judged.
    {
      qid: 'E',
      finalStep: finish,
      answerStatus: rounds('Unsolved', 'Unsolved'),
      taskStatus: rounds('Unsolvable', 'Solvable'),
    },
  ];

  // Solve rate. Round 0: A 1 + B 0.5 = 1.5, / 5 = 0.3. Round 1: A 1, / 5 = 0.2. Round 2: A 0.5 +
  // B 1 = 1.5, / 5 = 0.3. Mean (0.3 + 0.2 + 0.3) / 3 = 4/15. Deviations 1/30, −1/15, 1/30:
  // variance (1/900 + 4/900 + 1/900) / 3 = 1/450, std √(1/450) ≈ 0.0471: "26.7±4.7". The std
  // is numpy's double, 0.04714045207910316 (√(1/450) rounded once is one unit in the last place
  // above).
  // Pass rate. A: P P P (Unsure answer, Unsolvable task → Passed), 3-0, passes. B: P (Unsure,
  // Unsolvable) F (Unsolved, Solvable) P (Solved), 2-1, passes. C: F P F, 1-2, fails. D: no
  // Finish, 0-3, fails. E: P (Unsolved, Unsolvable) F, round 2 not counted, 1-1: a tie, passes.
  // 3 of 5: 0.6, no coin.
  it('gives the numbers the rule gives, exactly', () => {
    const figures = computePassRate(queries);
    expect(figures.perRound).toEqual([0.3, 0.2, 0.3]);
    expect(figures.solveRate).toBe(4 / 15);
    expect(figures.std).toBe(0.04714045207910316);
    expect(figures.std).toBeCloseTo(Math.sqrt(1 / 450), 15);
    expect(formatSolveRate(figures)).toBe('26.7±4.7');
    expect(figures.passRate).toBe(0.6);
    expect(figures.passRateCoins).toBe(0);
    expect(figures.missing).toEqual([{ qid: 'E', round: 2 }]);
    const byQid = Object.fromEntries(figures.perQuery.map((q) => [q.qid, q]));
    expect(
      Object.fromEntries(
        Object.entries(byQid).map(([qid, q]) => [
          qid,
          [q.solvePoints, q.pass?.passed, q.pass?.failed, q.pass?.passes],
        ]),
      ),
    ).toEqual({
      A: [2.5, 3, 0, true],
      B: [1.5, 2, 1, true],
      C: [0, 1, 2, false],
      D: [0, 0, 3, false],
      E: [0, 1, 1, true],
    });
    // A tie passes the figure; the CSV label of a tie is a coin's.
    expect(['passed', 'failed']).toContain(byQid.E?.pass?.label);
  });

  it('leaves the pass rate undefined when a round needs a task verdict it lacks', () => {
    const figures = computePassRate(queries.map(({ taskStatus: _, ...query }) => query));
    expect(figures.passRate).toBeUndefined();
    expect(figures.undecided).toEqual([
      { qid: 'A', round: 2 },
      { qid: 'B', round: 0 },
      { qid: 'B', round: 1 },
      { qid: 'C', round: 0 },
      { qid: 'C', round: 1 },
      { qid: 'C', round: 2 },
      { qid: 'E', round: 0 },
      { qid: 'E', round: 1 },
    ]);
    // The solve rate needs none.
    expect(figures.solveRate).toBe(4 / 15);
  });

  it("uses the earlier evaluator's recorded counts, whose coins were thrown already", () => {
    const figures = computePassRate([
      { ...queries[2]!, recordedCounts: { passed: 2, failed: 1 } },
      { ...queries[3]!, recordedCounts: { passed: 3, failed: 0 } }, // no Finish: fails anyway
      {
        qid: 'F',
        finalStep: finish,
        answerStatus: rounds('Unsure'),
        recordedCounts: { passed: 0, failed: 0 },
      },
    ]);
    expect(figures.perQuery.map((q) => [q.qid, q.pass?.passes, q.pass?.from])).toEqual([
      ['C', true, 'recorded'],
      ['D', false, 'pre-judge'],
      ['F', true, 'recorded'],
    ]);
    expect(figures.passRate).toBe(2 / 3);
  });

  it('applies the empty-answer rule to the solve rate, while the task verdict still decides the pass', () => {
    // rtl.py L67-71: Unsolved without judging, whatever was recorded; an Unsolvable task passes.
    const figures = computePassRate([
      {
        qid: 'G',
        finalStep: finish,
        finalAnswer: '{"return_type": "give_up_and_restart"}',
        answerStatus: rounds('Solved', 'Solved'),
        taskStatus: rounds('Unsolvable', 'Solvable'),
      },
    ]);
    expect(figures.solveRate).toBe(0);
    expect(figures.perQuery[0]?.pass).toMatchObject({ passed: 1, failed: 1, passes: true });
  });
});

describe('the coin', () => {
  // H: round 0 Unsure answer on a Solvable task → is_passed Unsure → a coin; round 1 Unsolved on
  // a Solvable task → failed. Heads: 1-1, a tie, passes; tails: 0-2, fails.
  const queries: QueryVerdicts[] = [
    {
      qid: 'H',
      finalStep: finish,
      answerStatus: rounds('Unsure', 'Unsolved'),
      taskStatus: rounds('Solvable', 'Solvable'),
    },
  ];

  it('decides an Unsure round, the same way for the same seed, both ways across seeds', () => {
    const outcomes = new Set<number | undefined>();
    for (let seed = 0; seed < 64; seed++) {
      const figures = computePassRate(queries, { seed });
      expect(computePassRate(queries, { seed })).toEqual(figures);
      expect(figures.passRateCoins).toBe(1);
      expect(figures.solveRate).toBe(0.25); // (0.5 + 0) / 2: the coin never touches it
      outcomes.add(figures.passRate);
    }
    expect([...outcomes].sort()).toEqual([0, 1]);
  });
});

describe('bad input', () => {
  it.each([
    [[], {}, 'queries'],
    [[{ qid: 'a', finalStep: finish, answerStatus: new Map() }], {}, 'queries'],
    [
      [{ qid: 'a', finalStep: finish, answerStatus: rounds('Solved') }],
      { evaluateTimes: 0 },
      'options.evaluateTimes',
    ],
    [
      [{ qid: 'a', finalStep: finish, answerStatus: rounds('Solved') }],
      { seed: 0.5 },
      'options.seed',
    ],
  ] as const)('refuses %o with %o (%s)', (queries, options, argument) => {
    let error: unknown;
    try {
      computePassRate(queries as readonly QueryVerdicts[], options);
    } catch (e) {
      error = e;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe(argument);
  });

  it('refuses an unknown verdict before computing anything, naming the query', () => {
    const queries = [
      { qid: 'ok', finalStep: finish, answerStatus: rounds('Solved') },
      { qid: 'bad', finalStep: finish, answerStatus: rounds('Solved', 'Solvd') },
    ] as unknown as QueryVerdicts[];
    expect(() => computePassRate(queries)).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        details: expect.objectContaining({ qid: 'bad', field: 'answerStatus' }),
      }),
    );
  });
});
