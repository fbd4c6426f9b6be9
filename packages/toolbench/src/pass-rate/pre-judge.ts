import type { QueryVerdicts } from './verdicts.js';

/**
 * Why a query is Unsolved before any judge reads it:
 * - `no-finish`: its last tool step is not a Finish call. `"'name': 'Finish'" not in
 *   final_step` returns Unsolved without judging (StableToolBench
 *   `toolbench/tooleval/eval_pass_rate.py` L52-53 at aa4ed9f), and in the ToolBench pass rate the
 *   round is labelled failed outright (L71-72 at 45b9007; ToolBench L66-67 at d56fdd8).
 * - `empty-final-answer`, `give-up-and-restart`: `final_answer == ''` or
 *   `'give_up_and_restart' in final_answer` make `check_is_solved` return Unsolved without asking
 *   the judge (`evaluators/registered_cls/rtl.py` L67-71 at aa4ed9f). The task is still judged
 *   there, so the ToolBench pass rate may still pass it (an Unsolvable task passes).
 */
export type UnsolvedBeforeJudging = 'no-finish' | 'empty-final-answer' | 'give-up-and-restart';

/** The check the reference makes before judging, on what a results file (or caller) records. */
export function unsolvedBeforeJudging(
  query: Pick<QueryVerdicts, 'finalStep' | 'finalAnswer'>,
): UnsolvedBeforeJudging | undefined {
  // A substring test of the step's Python repr, as the reference's `in`.
  if (!query.finalStep.includes("'name': 'Finish'")) return 'no-finish';
  if (query.finalAnswer === undefined) return undefined;
  if (query.finalAnswer === '') return 'empty-final-answer';
  if (query.finalAnswer.includes('give_up_and_restart')) return 'give-up-and-restart';
  return undefined;
}
