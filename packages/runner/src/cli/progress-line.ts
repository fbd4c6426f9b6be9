import type { ItemResult } from '../output/item-result.js';
import type { RunProgress } from '../run/run-options.js';
import type { ScoreFailure } from '../score/score-writer.js';

const BAR = 20;

function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60
    ? `${m}m${String(s % 60).padStart(2, '0')}s`
    : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

function count(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${(n / 1e3).toFixed(1)}k` : String(n);
}

/** One status line: a bar when the total is known, done/failed, rate, ETA and tokens. */
export function formatProgress(p: RunProgress): string {
  const finished = p.done + p.skipped;
  const parts: string[] = [];
  if (p.total !== undefined && p.total > 0) {
    const filled = Math.min(BAR, Math.round((finished / p.total) * BAR));
    parts.push(`[${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}] ${finished}/${p.total}`);
  } else parts.push(`${finished} done`);
  parts.push(`${p.failed} failed`);
  if (p.skipped) parts.push(`${p.skipped} from before`);
  parts.push(`${p.rate.toFixed(1)}/s`);
  if (p.etaMs !== undefined) parts.push(`ETA ${duration(p.etaMs)}`);
  parts.push(`${count(p.tokens)} tokens`);
  return parts.join(' · ');
}

/** One line for an item that did not complete. */
export function formatItemError(result: ItemResult): string {
  const where = result.line === undefined ? '' : ` (line ${result.line})`;
  const error = result.error ?? { code: result.status, message: 'no error recorded' };
  const node = error.nodeId === undefined ? '' : ` at ${error.nodeId}`;
  return `✗ item ${result.itemId}${where} ${result.status}${node}: ${error.code} ${error.message}`;
}

/** One line for a scorer call that gave no score. */
export function formatScoreFailure(failure: ScoreFailure): string {
  return `✗ score ${failure.scorer} of item ${failure.itemId}: ${failure.code} ${failure.message}`;
}

/**
 * Draws progress on a stream: redrawn in place on a terminal (at most every 100 ms), else a
 * plain line every 5 s. Error lines are printed above it.
 */
export class ProgressLine {
  readonly #out: NodeJS.WriteStream;
  readonly #tty: boolean;
  #last = 0;
  #shown = '';

  constructor(out: NodeJS.WriteStream) {
    this.#out = out;
    this.#tty = out.isTTY === true;
  }

  update(progress: RunProgress, force = false): void {
    const now = performance.now();
    if (!force && now - this.#last < (this.#tty ? 100 : 5_000)) return;
    this.#last = now;
    this.#shown = formatProgress(progress);
    this.#out.write(this.#tty ? `\r\u001b[2K${this.#shown}` : `${this.#shown}\n`);
  }

  /** A line above the progress line. */
  print(line: string): void {
    this.#out.write(this.#tty ? `\r\u001b[2K${line}\n${this.#shown}` : `${line}\n`);
  }

  end(): void {
    if (this.#tty && this.#shown !== '') this.#out.write('\n');
  }
}
