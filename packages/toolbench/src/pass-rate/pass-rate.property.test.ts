import { InvalidArgumentError } from '@skein/spec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computePassRate, type PassRateFigures } from './pass-rate.js';
import {
  type AnswerStatus,
  parsePassRateResults,
  type QueryVerdicts,
  type TaskStatus,
} from './verdicts.js';

const finish = "Final step: {'name': 'Finish', 'arguments': '{}', 'response': ''}";
const noFinish = "Final step: {'name': 'search_for_x', 'arguments': '{}', 'response': ''}";
const answerStatus = fc.constantFrom<AnswerStatus>('Solved', 'Unsolved', 'Unsure');
const taskStatus = fc.constantFrom<TaskStatus>('Solvable', 'Unsolvable', 'Unsure');

/** One query over `rounds` rounds: maybe no Finish, maybe a final answer, maybe rounds missing. */
function query(qid: string, rounds: number): fc.Arbitrary<QueryVerdicts> {
  return fc
    .record({
      finalStep: fc.constantFrom(finish, finish, finish, noFinish, ''),
      finalAnswer: fc.option(
        fc.constantFrom('', '{"return_type": "give_up_and_restart"}', '{"final_answer": "x"}'),
        { nil: undefined },
      ),
      answers: fc.array(fc.option(answerStatus, { nil: undefined, freq: 8 }), {
        minLength: rounds,
        maxLength: rounds,
      }),
      tasks: fc.option(fc.array(taskStatus, { minLength: rounds, maxLength: rounds }), {
        nil: undefined,
        freq: 4,
      }),
    })
    .map(({ finalStep, finalAnswer, answers, tasks }) => ({
      qid,
      finalStep,
      ...(finalAnswer === undefined ? {} : { finalAnswer }),
      answerStatus: new Map(
        answers.flatMap((status, round) =>
          status === undefined ? [] : [[round, status] as const],
        ),
      ),
      ...(tasks === undefined ? {} : { taskStatus: new Map(tasks.map((t, round) => [round, t])) }),
    }));
}

/** A set of queries with distinct ids, all over the same number of rounds. */
const queries = fc
  .tuple(
    fc.integer({ min: 1, max: 5 }),
    fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 }),
  )
  .chain(([rounds, qids]) =>
    fc.tuple(fc.constant(rounds), fc.tuple(...qids.map((qid) => query(qid, rounds)))),
  );

/** The solve rate as eval_pass_rate.py L122-143 (aa4ed9f) computes it, in floats. */
function reference(
  list: readonly QueryVerdicts[],
  rounds: number,
): { scores: number[]; mean: number; std: number } {
  const scores: number[] = [];
  for (let round = 0; round < rounds; round++) {
    let score = 0;
    for (const q of list) {
      // The reference never judges a query without Finish (L52): it records Unsolved.
      const failsBefore =
        !q.finalStep.includes("'name': 'Finish'") ||
        (q.finalAnswer !== undefined &&
          (q.finalAnswer === '' || q.finalAnswer.includes('give_up_and_restart')));
      const status = failsBefore ? 'Unsolved' : q.answerStatus.get(round);
      if (status === 'Solved') score += 1;
      else if (status === 'Unsure') score += 0.5;
    }
    scores.push(score / list.length);
  }
  // `sum(scores) / len(scores)`; `np.std`, whose pairwise sum is a plain loop under 8 values.
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const std = Math.sqrt(scores.reduce((a, x) => a + (x - mean) * (x - mean), 0) / scores.length);
  return { scores, mean, std };
}

function summary(figures: PassRateFigures): unknown {
  return {
    ...figures,
    undecided: [...figures.undecided].sort((a, b) =>
      `${a.qid}@${a.round}`.localeCompare(`${b.qid}@${b.round}`),
    ),
    missing: [...figures.missing].sort((a, b) =>
      `${a.qid}@${a.round}`.localeCompare(`${b.qid}@${b.round}`),
    ),
    perQuery: [...figures.perQuery].sort((a, b) => a.qid.localeCompare(b.qid)),
  };
}

describe('computePassRate properties', () => {
  it("matches the reference's solve rate, round scores, mean and std, to the bit", () => {
    fc.assert(
      fc.property(queries, ([rounds, list]) => {
        const figures = computePassRate(list, { evaluateTimes: rounds });
        const ref = reference(list, rounds);
        expect(figures.perRound).toEqual(ref.scores);
        expect(figures.solveRate).toBe(ref.mean);
        expect(figures.std).toBe(ref.std);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every figure in [0, 1] (std in [0, 0.5])', () => {
    fc.assert(
      fc.property(queries, fc.integer(), ([rounds, list], seed) => {
        const f = computePassRate(list, { evaluateTimes: rounds, seed });
        for (const x of [f.solveRate, ...f.perRound, f.passRate ?? 0])
          expect(x >= 0 && x <= 1).toBe(true);
        expect(f.std >= 0 && f.std <= 0.5).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same figures for the same seed, every time', () => {
    fc.assert(
      fc.property(queries, fc.integer(), ([rounds, list], seed) => {
        expect(computePassRate(list, { evaluateTimes: rounds, seed })).toEqual(
          computePassRate(list, { evaluateTimes: rounds, seed }),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('does not depend on the order of the queries (coins included)', () => {
    fc.assert(
      fc.property(
        queries.chain(([rounds, list]) =>
          fc.tuple(
            fc.constant(rounds),
            fc.constant(list),
            fc.shuffledSubarray(list, { minLength: list.length }),
          ),
        ),
        fc.integer(),
        ([rounds, list, shuffled], seed) => {
          expect(summary(computePassRate(shuffled, { evaluateTimes: rounds, seed }))).toEqual(
            summary(computePassRate(list, { evaluateTimes: rounds, seed })),
          );
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives 1 when every round of every query is Solved, and 0 when every one is Unsolved', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 1, max: 6 }),
        taskStatus,
        (qids, rounds, task) => {
          const all = (status: AnswerStatus, taskOf: TaskStatus): QueryVerdicts[] =>
            qids.map((qid) => ({
              qid,
              finalStep: finish,
              answerStatus: new Map(Array.from({ length: rounds }, (_, r) => [r, status])),
              taskStatus: new Map(Array.from({ length: rounds }, (_, r) => [r, taskOf])),
            }));
          const solved = computePassRate(all('Solved', task));
          expect([solved.solveRate, solved.std, solved.passRate]).toEqual([1, 0, 1]);
          const unsolved = computePassRate(all('Unsolved', 'Solvable'));
          expect([unsolved.solveRate, unsolved.std, unsolved.passRate]).toEqual([0, 0, 0]);
          expect(unsolved.passRateCoins).toBe(0);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('never counts solved a query that fails the pre-judge rule, nor passed one without Finish', () => {
    fc.assert(
      fc.property(queries, fc.integer(), ([rounds, list], seed) => {
        const figures = computePassRate(list, { evaluateTimes: rounds, seed });
        for (const q of figures.perQuery) {
          if (q.unsolvedBeforeJudging !== undefined) expect(q.solvePoints).toBe(0);
          if (q.unsolvedBeforeJudging === 'no-finish') expect(q.pass?.passes).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a file with one unknown verdict, naming its query', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 8 }),
        fc.nat(),
        fc.string().filter((s) => !/^AnswerStatus\.(Solved|Unsolved|Unsure)$/.test(s)),
        (qids, pick, bad) => {
          const target = qids[pick % qids.length]!;
          const file = Object.fromEntries(
            qids.map((qid) => [
              qid,
              {
                final_step: finish,
                is_solved: { '0': qid === target ? bad : 'AnswerStatus.Solved' },
              },
            ]),
          );
          let error: unknown;
          try {
            parsePassRateResults(file);
          } catch (e) {
            error = e;
          }
          expect(InvalidArgumentError.isInstance(error)).toBe(true);
          expect((error as InvalidArgumentError).details).toMatchObject({
            qid: target,
            field: 'is_solved',
          });
        },
      ),
      { numRuns: 100 },
    );
  });
});
