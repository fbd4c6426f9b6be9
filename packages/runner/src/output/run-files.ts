/** The files every run folder holds, beside its exports. */
export const RUN_FILE = 'run.json';
export const RESULTS_FILE = 'results.jsonl';
export const SUMMARY_FILE = 'summary.json';
/** The run's scores, one line per item and scorer (when it is scored). */
export const SCORES_FILE = 'scores.jsonl';
/** One line per scorer call that gave no score (it threw, timed out, or returned no score). */
export const SCORE_ERRORS_FILE = 'score-errors.jsonl';
/** An export may not write to these. */
export const RUN_FILES: readonly string[] = [
  RUN_FILE,
  RESULTS_FILE,
  SUMMARY_FILE,
  SCORES_FILE,
  SCORE_ERRORS_FILE,
];
