import { type BootstrapOptions, DEFAULT_RESAMPLES, DEFAULT_SEED } from './bootstrap.js';
import { compareScores, type ScoresComparison } from './compare-scores.js';
import { readScores } from './read-scores.js';

/** A comparison of two run folders' scores, with what it was computed from. */
export interface RunComparison extends ScoresComparison {
  readonly runA: RunScoresFile;
  readonly runB: RunScoresFile;
  readonly seed: number;
  readonly resamples: number;
}

interface RunScoresFile {
  readonly folder: string;
  readonly file: string;
  /** A torn last line the reading ignored. */
  readonly tornLine?: number;
}

/**
 * Reads `scores.jsonl` of both run folders and compares them (see `compareScores`). Throws
 * `RunnerError` for a missing folder or file, or a bad line, before any bootstrap runs.
 */
export async function compareRuns(
  folderA: string,
  folderB: string,
  options: BootstrapOptions = {},
): Promise<RunComparison> {
  const { seed = DEFAULT_SEED, resamples = DEFAULT_RESAMPLES } = options;
  // One after the other, so with both folders bad the error is always about A.
  const a = await readScores(folderA);
  const b = await readScores(folderB);
  const fileOf = (folder: string, read: typeof a): RunScoresFile => ({
    folder,
    file: read.file,
    ...(read.tornLine === undefined ? {} : { tornLine: read.tornLine }),
  });
  return {
    runA: fileOf(folderA, a),
    runB: fileOf(folderB, b),
    seed,
    resamples,
    ...compareScores(a.scores, b.scores, { seed, resamples }),
  };
}
