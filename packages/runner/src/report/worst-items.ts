/** Items listed per scorer as its worst. */
const WORST_ITEMS = 20;

/** An item among a scorer's lowest scores. */
export interface WorstItem {
  readonly itemId: string;
  readonly score: number;
}

/**
 * The items a scorer scored lowest, below 1 (an item scored 1 is as good as the scorer can say),
 * lowest first, then by id (code units: the same order on every machine): at most `count`.
 */
export function worstItems(
  scores: ReadonlyMap<string, number>,
  count: number = WORST_ITEMS,
): WorstItem[] {
  return [...scores]
    .filter(([, score]) => score < 1)
    .sort(([x, a], [y, b]) => a - b || (x < y ? -1 : x > y ? 1 : 0))
    .slice(0, count)
    .map(([itemId, score]) => ({ itemId, score }));
}
