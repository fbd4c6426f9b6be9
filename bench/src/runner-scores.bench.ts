import type { BenchRow } from './harness.js';
import { SCORES_GOAL, type ScoresOverhead, scoresOverhead } from './runner/scores-overhead.js';
import type { BenchSuite } from './suite.js';

// Issue 47's runtime figure: a 10,000-item dataset run of the five-node workflow (the runner
// suite's) with two code scorers (exact match and a function) against the same run without,
// each side in processes of its own, compiled (runner/scores-overhead.ts). Goal: at most 5%
// longer.

const SUITE = 'runner-scores';
const quick = process.env.BENCH_QUICK === '1';
const N = quick ? 2_000 : 10_000;
const CONCURRENCY = 64;
const PAIRS = quick ? 2 : 6;
const ROUNDS = quick ? 2 : 5;
let overhead: ScoresOverhead | undefined;

export const runnerScoresSuite: BenchSuite = {
  name: SUITE,
  async run(): Promise<BenchRow[]> {
    overhead = await scoresOverhead(SUITE, N, CONCURRENCY, PAIRS, ROUNDS);
    return overhead.rows;
  },
  summarize() {
    if (!overhead) return '';
    const { ratio, cpuRatio, paired } = overhead;
    const verdict = (r: number) => (r <= SCORES_GOAL ? 'met' : 'NOT met');
    return [
      `with code scorers / without, wall time: ${ratio.toFixed(3)}× (goal ≤ ${SCORES_GOAL}×): ${verdict(ratio)}`,
      `  CPU time: ${cpuRatio.toFixed(3)}×; per pair of processes: ${paired.map((r) => r.toFixed(3)).join(' / ')}`,
    ].join('\n');
  },
};
