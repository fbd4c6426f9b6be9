import type { AnswerStatus, TaskStatus } from './verdicts.js';

/** `AnswerPass` (StableToolBench `toolbench/tooleval/evaluators/registered_cls/rtl.py` L26-29). */
export type AnswerPass = 'Passed' | 'Failed' | 'Unsure';

/**
 * One round's pass from its two verdicts, as `is_passed` decides it (rtl.py L119-152 at aa4ed9f,
 * unchanged since 45b9007; ToolBench rtl.py L121-154 at d56fdd8):
 *
 * | answer \ task | Solvable | Unsure | Unsolvable |
 * | --- | --- | --- | --- |
 * | Solved   | Passed | Passed | Passed |
 * | Unsolved | Failed | Unsure | Passed |
 * | Unsure   | Unsure | Unsure | Passed |
 *
 * A Solved answer needs no task verdict: `check_task_solvable(has_been_solved=True)` answers
 * Solvable without asking the judge (rtl.py L103-106), and Solved passes whatever the task.
 */
export function isPassed(
  answer: AnswerStatus,
  task: TaskStatus | undefined,
): AnswerPass | undefined {
  if (answer === 'Solved') return 'Passed';
  if (task === undefined) return undefined;
  if (task === 'Unsolvable') return 'Passed';
  if (answer === 'Unsolved' && task === 'Solvable') return 'Failed';
  return 'Unsure';
}
