import { join } from 'node:path';
import type { ScoreErrorCode } from '../errors/score-error.js';
import {
  type AppendFile,
  closeAppend,
  openAppend,
  writeBytes,
  writePending,
} from '../output/append-file.js';
import { SCORE_ERRORS_FILE, SCORES_FILE } from '../output/run-files.js';
import type { ScoreValue } from './scorer.js';

/** A line of `score-errors.jsonl`: a scorer call that gave no score. */
export interface ScoreFailure {
  readonly itemId: string;
  readonly scorer: string;
  readonly code: ScoreErrorCode;
  readonly message: string;
}

/** What a scorer's lines share, written once: its name, and its last reason's JSON. */
interface ScorerPart {
  /** `,"scorer":<name>,"score":` */
  readonly prefix: string;
  reason: string | undefined;
  reasonJson: string;
}

/** How long a queued line may wait to be written, and how much may wait before it is. */
const FLUSH_DELAY_MS = 100;
const FLUSH_BYTES = 64 * 1024;

/**
 * Appends score lines to `scores.jsonl` and failed calls to `score-errors.jsonl`, each file with as
 * many writes as it takes: a crash can tear the last line of a file, which the next process cuts
 * (`readOwnScores`), and never leaves a line in the middle unfinished. Lines are written together
 * 100 ms after the first of them was queued, or once about 64 KiB wait, not in every turn of the
 * event loop as results are: items finish a few at a time, and a write of their few score lines
 * each turn cost a 10,000-item run with two code scorers a few percent of its time (bench suite
 * `runner-scores`). A crash loses at most those 100 ms of scores, which the next run makes again
 * (`readOwnScores` finds them missing).
 */
export class ScoreWriter {
  readonly #scores: AppendFile;
  readonly #errors: AppendFile;
  readonly #parts = new Map<string, ScorerPart>();
  /**
   * Score lines queued, as the bytes they are written as: each line goes here as soon as it is
   * made, so no string of it outlives its item (kept as strings for the 100 ms, they outlived
   * several young-generation collections, and the copying and promoting cost more than the lines).
   */
  readonly #bytes = Buffer.allocUnsafe(FLUSH_BYTES);
  #used = 0;
  /** Error lines queued, each ending in its newline. */
  readonly #errorLines: string[] = [];
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #failure: unknown;

  constructor(folder: string) {
    this.#scores = openAppend(join(folder, SCORES_FILE));
    try {
      this.#errors = openAppend(join(folder, SCORE_ERRORS_FILE));
    } catch (error) {
      closeAppend(this.#scores);
      throw error;
    }
  }

  /**
   * Queues a score line, written as `JSON.stringify` writes `{ itemId, scorer, score, reason?,
   * details? }`, put together from parts kept per scorer: its name's JSON, and its last reason's
   * (code scorers repeat a few reasons). This runs for every item and scorer of a run. A score is a
   * finite number, which JavaScript and JSON write alike.
   */
  addScore(itemId: string, scorer: string, value: ScoreValue): void {
    if (this.#failure !== undefined) throw this.#failure;
    let part = this.#parts.get(scorer);
    if (!part) {
      part = {
        prefix: `,"scorer":${JSON.stringify(scorer)},"score":`,
        reason: undefined,
        reasonJson: '',
      };
      this.#parts.set(scorer, part);
    }
    const reason = value.reason;
    if (reason !== undefined && reason !== part.reason) {
      part.reason = reason;
      part.reasonJson = `,"reason":${JSON.stringify(reason)}`;
    }
    const details =
      value.details === undefined ? '' : `,"details":${JSON.stringify(value.details)}`;
    this.#append(
      `{"itemId":${JSON.stringify(itemId)}${part.prefix}${value.score}${reason === undefined ? '' : part.reasonJson}${details}}\n`,
    );
  }

  addError(failure: ScoreFailure): void {
    if (this.#failure !== undefined) throw this.#failure;
    this.#errorLines.push(`${JSON.stringify(failure)}\n`);
    this.#schedule();
  }

  /** Writes what is queued now. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#closed || this.#failure !== undefined) return;
    try {
      writeBytes(this.#scores, this.#bytes.subarray(0, this.#used));
      this.#used = 0;
      this.#errors.pending = this.#errorLines.join('');
      this.#errorLines.length = 0;
      writePending(this.#errors);
    } catch (error) {
      this.#failure = error;
      throw error;
    }
  }

  /** Throws the first write failure, if a scheduled flush had one. */
  check(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Writes what is queued and closes the files; throws a write failure, even an earlier one. */
  close(): void {
    if (this.#closed) return;
    try {
      this.flush();
    } finally {
      this.#closed = true;
      closeAppend(this.#scores);
      closeAppend(this.#errors);
    }
    this.check();
  }

  /** Puts a score line into the bytes to write, writing them first when it would not fit. */
  #append(line: string): void {
    // At most 3 bytes of UTF-8 a UTF-16 unit: a line this long might not fit in what is left.
    if (this.#used + line.length * 3 > this.#bytes.length) {
      this.#flushSafely();
      this.check();
      if (line.length * 3 > this.#bytes.length) {
        try {
          writeBytes(this.#scores, Buffer.from(line, 'utf8'));
        } catch (error) {
          this.#failure = error;
          throw error;
        }
        return;
      }
    }
    this.#used += this.#bytes.write(line, this.#used, 'utf8');
    this.#schedule();
  }

  /** Writes what waits within 100 ms. */
  #schedule(): void {
    this.#timer ??= setTimeout(() => this.#flushSafely(), FLUSH_DELAY_MS);
  }

  #flushSafely(): void {
    try {
      this.flush();
    } catch {
      // Kept in #failure, thrown by the next line queued or check().
    }
  }
}
