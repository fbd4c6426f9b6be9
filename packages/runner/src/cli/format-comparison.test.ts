import { describe, expect, it } from 'vitest';
import type { RunComparison } from '../score/compare-runs.js';
import { compareScores } from '../score/compare-scores.js';
import { formatComparison } from './format-comparison.js';

function comparison(a: Record<string, number>, b: Record<string, number>): RunComparison {
  return {
    runA: { folder: 'runs/a', file: 'runs/a/scores.jsonl' },
    runB: { folder: 'runs/b', file: 'runs/b/scores.jsonl' },
    seed: 1,
    resamples: 1000,
    ...compareScores(
      new Map([['exact', new Map(Object.entries(a))]]),
      new Map([
        ['exact', new Map(Object.entries(b))],
        ['judge', new Map([['q0', 1]])],
      ]),
      { seed: 1, resamples: 1000 },
    ),
  };
}

describe('formatComparison', () => {
  it('prints a row per scorer and the first 20 changed items', () => {
    const ids = Array.from({ length: 25 }, (_, i) => `q${String(i).padStart(2, '0')}`);
    const text = formatComparison(
      comparison(
        Object.fromEntries(ids.map((id) => [id, 0])),
        Object.fromEntries(ids.map((id, i) => [id, (i + 1) / 25])),
      ),
    );
    const lines = text.split('\n');
    expect(lines[4]).toMatch(
      /^scorer\s+n\s+mean A \[95% CI\]\s+mean B \[95% CI\]\s+B − A \[95% CI\]$/,
    );
    expect(lines[5]).toMatch(
      /^exact\s+25\s+0\.000 \[0\.000, 0\.000\]\s+0\.520 \[\d\.\d{3}, \d\.\d{3}\]\s+\+0\.520 \[\+\d\.\d{3}, \+\d\.\d{3}\]\s+real$/,
    );
    expect(text).toContain('scorers only in B, not compared: judge');
    expect(text).toContain('exact: 25 of 25 items changed (25 up, 0 down), largest first');
    expect(text).toMatch(/ {2}q24\s+0\.000 → 1\.000\s+\+1\.000/);
    expect(text).toContain('q05');
    expect(text).not.toContain('q04');
    expect(text).toContain('… and 5 more (--json lists every one)');
  });

  it('says within noise, and counts items only one run scored', () => {
    const text = formatComparison(comparison({ q1: 0, q2: 1, q3: 1 }, { q1: 1, q2: 0, q4: 1 }));
    expect(text).toMatch(/exact\s+2\s+.*\s+0\.000 \[-1\.000, \+1\.000\]\s+within noise/);
    expect(text).toContain('exact: 1 item scored only in A, 1 only in B');
  });
});
