/** Where a run's items come from: a list, any (async) iterable, or the path of a JSONL file. */
export type DatasetInput = readonly unknown[] | Iterable<unknown> | AsyncIterable<unknown> | string;

/**
 * How an item's id is found: the name of a field of the item (a string or a finite number), or a
 * function of the item and its position. Default: the line number for a JSONL file (from 1),
 * the index for a list or iterable (from 0).
 */
export type ItemIdOption = string | ((item: unknown, position: number) => string | number);

/** An item the run will process. */
export interface DatasetItem {
  readonly id: string;
  readonly value: unknown;
  /** Line number in a JSONL input. */
  readonly line?: number;
}

/** An entry that cannot be run: a malformed line, or an item without a usable or unique id. */
interface InvalidEntry {
  /** `line:<n>` or `index:<n>`: unique, since the entry's own id cannot be trusted. */
  readonly id: string;
  readonly line?: number;
  readonly error: { readonly code: string; readonly message: string };
}

export type DatasetEntry =
  | { readonly kind: 'item'; readonly item: DatasetItem }
  | { readonly kind: 'invalid'; readonly entry: InvalidEntry };
