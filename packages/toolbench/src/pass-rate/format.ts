// The figures as the benchmark prints them: `f"{x:.1f}"` of the value ×100 (StableToolBench
// `toolbench/tooleval/eval_pass_rate.py` L142-144 at aa4ed9f), the form of the published tables'
// `52.2±1.1`.

import type { PassRateFigures } from './pass-rate.js';

/**
 * Python's `f"{x * 100:.1f}"` for a share `x` in [0, 1]. `toFixed` rounds the exact binary value
 * as Python does, except at an exact tie, which only `….25` can be in binary at one decimal:
 * Python rounds it to even (`12.25` → `12.2`), `toFixed` up; that case is handled.
 */
export function formatPercent(share: number): string {
  const percent = share * 100;
  const quarters = percent * 4;
  if (Number.isInteger(quarters) && quarters % 4 === 1)
    return (Math.floor(percent * 10) / 10).toFixed(1);
  return percent.toFixed(1);
}

/** `52.2±1.1`: the solve rate and its std over rounds, as the published tables show them. */
export function formatSolveRate(figures: Pick<PassRateFigures, 'solveRate' | 'std'>): string {
  return `${formatPercent(figures.solveRate)}±${formatPercent(figures.std)}`;
}
