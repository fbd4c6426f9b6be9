/** The files every run folder holds, beside its exports. */
export const RUN_FILE = 'run.json';
export const RESULTS_FILE = 'results.jsonl';
export const SUMMARY_FILE = 'summary.json';
/** An export may not write to these. */
export const RUN_FILES: readonly string[] = [RUN_FILE, RESULTS_FILE, SUMMARY_FILE];
