import { existsSync, statSync, truncateSync } from 'node:fs';
import { RunnerError } from '../errors/runner-error.js';
import { couldStartLine, scanLines } from '../output/scan-lines.js';
import { problemOf, type ScoreLine } from './read-scores.js';
import type { ScoreBook } from './score-book.js';

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function notOurs(path: string, problem: string): RunnerError<'OUTPUT_NOT_OURS'> {
  return RunnerError.runFolder(
    path,
    `${problem}: this run did not write it, and leaves the file as it is`,
    undefined,
    'OUTPUT_NOT_OURS',
  );
}

function cut(path: string, at: number | undefined): number {
  if (at === undefined) return 0;
  const torn = statSync(path).size - at;
  try {
    truncateSync(path, at);
  } catch (error) {
    throw RunnerError.runFolder(path, 'could not be cut back to its last whole line', error);
  }
  return torn;
}

/**
 * Reads the `scores.jsonl` earlier processes of this run wrote into `book`, and cuts a torn last
 * line (a write a crash cut short) so that the file holds whole lines only; its pair is scored
 * again. As with `results.jsonl`, the run never cuts or appends after a line it cannot tell it
 * wrote: a last line that could not be the start of a score, a whole line that is not a score,
 * and a second line for an item and scorer are `RunnerError` (`OUTPUT_NOT_OURS`), and the file
 * is left as it is. Resolves to the bytes cut.
 */
export async function readOwnScores(path: string, book: ScoreBook): Promise<number> {
  if (!existsSync(path)) return 0;
  let cutAt: number | undefined;
  let lineNumber = 0;
  for await (const line of scanLines(path)) {
    lineNumber++;
    if (!line.terminated) {
      if (!couldStartLine(line.text))
        throw notOurs(
          path,
          `its last line (${lineNumber}) is neither a score nor the start of one`,
        );
      cutAt = line.start;
      continue;
    }
    const value = parse(line.text);
    const problem = value === undefined ? 'is not JSON' : problemOf(value);
    if (problem !== undefined) throw notOurs(path, `line ${lineNumber} ${problem}`);
    const score = value as ScoreLine;
    if (book.has(score.scorer, score.itemId))
      throw notOurs(
        path,
        `line ${lineNumber} repeats item "${score.itemId}" of scorer "${score.scorer}"`,
      );
    book.addEarlier(score);
  }
  return cut(path, cutAt);
}

/**
 * Cuts a torn last line of `score-errors.jsonl`, the log of scorer calls that gave no score, so
 * that lines appended after it stay whole. Its lines are a log, read by people: only the
 * start of the torn one is checked, as for scores.
 */
export async function cutTornErrorLine(path: string): Promise<number> {
  if (!existsSync(path)) return 0;
  let cutAt: number | undefined;
  let lineNumber = 0;
  for await (const line of scanLines(path)) {
    lineNumber++;
    if (line.terminated) continue;
    if (!couldStartLine(line.text))
      throw notOurs(path, `its last line (${lineNumber}) is not the start of an error line`);
    cutAt = line.start;
  }
  return cut(path, cutAt);
}
