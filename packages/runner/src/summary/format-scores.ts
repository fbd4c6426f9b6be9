import type { ScorerSummary } from '../score/score-book.js';

/** One line per scorer: its mean, how many items it scored, how many calls gave no score. */
export function formatScores(scores: Readonly<Record<string, ScorerSummary>>): string[] {
  return Object.entries(scores).map(([name, scorer]) => {
    const mean = scorer.mean === null ? '–' : scorer.mean.toFixed(3);
    const failed = scorer.failed ? `, ${scorer.failed} gave no score (score-errors.jsonl)` : '';
    return `${name}: mean ${mean} over ${scorer.scored} items${failed}`;
  });
}
