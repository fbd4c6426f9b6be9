import { InvalidArgumentError } from '@skein/spec';

/**
 * Recorded verdicts (or an option of the pass rate) that cannot be scored. `argument` is the
 * path of the value at fault (`results["588"].is_solved["1"]`); `details` has the `qid` (when a
 * query is at fault), the `field` and the `problem`.
 */
export function invalidVerdicts(
  argument: string,
  problem: string,
  where: { readonly qid?: string; readonly field?: string } = {},
): InvalidArgumentError {
  return new InvalidArgumentError(argument, `Cannot score the pass rate: ${argument} ${problem}`, {
    ...(where.qid === undefined ? {} : { qid: where.qid }),
    ...(where.field === undefined ? {} : { field: where.field }),
    problem,
  });
}
