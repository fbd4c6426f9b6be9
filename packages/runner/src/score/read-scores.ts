import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RunnerError } from '../errors/runner-error.js';
import { SCORES_FILE } from '../output/run-files.js';
import { isTornLine, scanLines } from '../output/scan-lines.js';

export { SCORES_FILE } from '../output/run-files.js';

/** A line of `scores.jsonl`. */
export interface ScoreLine {
  readonly itemId: string;
  readonly scorer: string;
  /** From 0 (worst) to 1 (best). */
  readonly score: number;
  readonly reason?: string;
  /** What the score was made from (a prompt, verdicts), any JSON value. */
  readonly details?: unknown;
}

/** Scores by scorer, then by item id, each map in file order. */
export type ScoresByScorer = ReadonlyMap<string, ReadonlyMap<string, number>>;

/** The reasons lines give, by scorer, then by item id (only lines with a reason). */
export type ReasonsByScorer = ReadonlyMap<string, ReadonlyMap<string, string>>;

export interface RunScores {
  /** The scores file read. */
  readonly file: string;
  readonly scores: ScoresByScorer;
  readonly reasons: ReasonsByScorer;
  /** The number of a last line without its newline, ignored as torn by a crash. */
  readonly tornLine?: number;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What is wrong with a line's value, or undefined when it is a score. */
export function problemOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'is not a JSON object';
  const line = value as Partial<Record<keyof ScoreLine, unknown>>;
  if (typeof line.itemId !== 'string' || line.itemId === '')
    return '"itemId" is not a non-empty string';
  if (typeof line.scorer !== 'string' || line.scorer === '')
    return '"scorer" is not a non-empty string';
  // NaN fails both comparisons, so it is refused here too.
  if (typeof line.score !== 'number' || !(line.score >= 0 && line.score <= 1))
    return `"score" is not a number from 0 to 1 (${JSON.stringify(line.score) ?? 'missing'})`;
  if (line.reason !== undefined && typeof line.reason !== 'string')
    return '"reason" is not a string';
  return undefined;
}

/**
 * Reads the `scores.jsonl` of a run folder. A last line without its newline is a write torn by a
 * crash and is ignored (reported as `tornLine`), but only when it could be the start of a score
 * line, as `readResults` does with results; the file is never changed. Any other line that is not
 * a score, and a line repeating the item and scorer of an earlier one, is `RunnerError`
 * (`SCORES_LINE_INVALID`, naming the file and line). A missing folder or file is `RunnerError`
 * (`RUN_FOLDER_INVALID`).
 */
export async function readScores(folder: string): Promise<RunScores> {
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw RunnerError.runFolder(folder, 'is not a folder');
  const file = join(folder, SCORES_FILE);
  if (!existsSync(file) || !statSync(file).isFile())
    throw RunnerError.runFolder(file, `does not exist: the run has no scores to compare`);
  const scores = new Map<string, Map<string, number>>();
  const reasons = new Map<string, Map<string, string>>();
  // Where each (scorer, item) was first seen, to name it when a line repeats it.
  const seenAt = new Map<string, Map<string, number>>();
  let tornLine: number | undefined;
  let lineNumber = 0;
  try {
    for await (const line of scanLines(file)) {
      lineNumber++;
      if (isTornLine(line)) {
        tornLine = lineNumber;
        continue;
      }
      const value = parse(line.text);
      const problem = value === undefined ? 'is not JSON' : problemOf(value);
      if (problem !== undefined)
        throw RunnerError.scoresLine(
          file,
          lineNumber,
          `${line.terminated ? '' : 'its last line, without a newline, '}${problem}`,
        );
      const { itemId, scorer, score, reason } = value as ScoreLine;
      const items = scores.get(scorer) ?? new Map<string, number>();
      const lines = seenAt.get(scorer) ?? new Map<string, number>();
      const earlier = lines.get(itemId);
      if (earlier !== undefined)
        throw RunnerError.scoresLine(
          file,
          lineNumber,
          `repeats item "${itemId}" of scorer "${scorer}" (first on line ${earlier})`,
        );
      items.set(itemId, score);
      lines.set(itemId, lineNumber);
      scores.set(scorer, items);
      seenAt.set(scorer, lines);
      if (reason !== undefined) {
        const why = reasons.get(scorer) ?? new Map<string, string>();
        why.set(itemId, reason);
        reasons.set(scorer, why);
      }
    }
  } catch (error) {
    if (RunnerError.isInstance(error)) throw error;
    throw RunnerError.runFolder(file, 'could not be read', error);
  }
  return { file, scores, reasons, ...(tornLine === undefined ? {} : { tornLine }) };
}
