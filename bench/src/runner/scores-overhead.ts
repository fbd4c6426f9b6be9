import type { BenchRow } from '../harness.js';
import { measureInWorker } from './spawn-worker.js';

/** Issue 47's goal: a run with code scorers takes at most 5% longer than the same run without. */
export const SCORES_GOAL = 1.05;

type Figures = Record<string, number>;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export interface ScoresOverhead {
  readonly rows: BenchRow[];
  /** Median wall time with scorers over median wall time without. */
  readonly ratio: number;
  /** The same for CPU time (user + system), which other work on a shared machine moves less. */
  readonly cpuRatio: number;
  /** Each pair of processes' wall-time ratio, in the order they ran. */
  readonly paired: readonly number[];
}

/**
 * The same run (n items through the five-node workflow at `concurrency`) without scorers and
 * with two code scorers, each in processes of its own (a process running both sides ran each
 * of them more slowly than a process of its own, as a real run is), `pairs`
 * processes a side, alternated so a burst of load on the shared machine hits both alike. Each
 * process warms up on 1,000 items, then makes the measured run `rounds` times and reports the
 * medians.
 */
export async function scoresOverhead(
  suite: string,
  n: number,
  concurrency: number,
  pairs: number,
  rounds: number,
): Promise<ScoresOverhead> {
  const plain: Figures[] = [];
  const scored: Figures[] = [];
  const measure = (mode: string) =>
    measureInWorker(mode, n, concurrency, undefined, [], [String(rounds)]);
  for (let i = 0; i < pairs; i++) {
    // Which side goes first alternates too.
    if (i % 2 === 0) {
      plain.push(await measure('runner'));
      scored.push(await measure('scored'));
    } else {
      scored.push(await measure('scored'));
      plain.push(await measure('runner'));
    }
  }
  const field = (runs: Figures[], name: string) => median(runs.map((r) => r[name]!));
  const through = `${n} items, 5 nodes, concurrency ${concurrency}`;
  const row = (subject: string, runs: Figures[]): BenchRow => ({
    suite,
    case: through,
    subject,
    ops: n,
    totalMs: field(runs, 'ms'),
    usPerOp: (field(runs, 'ms') * 1000) / n,
    peakRssMb: field(runs, 'maxRssMb'),
    note: `CPU ${field(runs, 'cpuMs').toFixed(0)} ms; per process ${runs.map((r) => r.ms!.toFixed(0)).join(' / ')} ms`,
  });
  return {
    rows: [
      row('runDataset, no scorers', plain),
      row('runDataset + exactMatch + functionScorer (scores.jsonl)', scored),
    ],
    ratio: field(scored, 'ms') / field(plain, 'ms'),
    cpuRatio: field(scored, 'cpuMs') / field(plain, 'cpuMs'),
    paired: scored.map((s, i) => s.ms! / plain[i]!.ms!),
  };
}
