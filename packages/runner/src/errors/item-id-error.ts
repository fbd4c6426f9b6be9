import { SkeinError } from '@skein/spec';

/**
 * An item has no usable id (the id field is missing or not a string or number), or repeats the
 * id of an earlier item: it is recorded as invalid rather than run, so no two items share a
 * thread.
 */
export class ItemIdError extends SkeinError<'ITEM_ID_INVALID'> {
  static override readonly errorName = 'ItemIdError';
  /** Where the item came from: `data.jsonl:12` or `item 12`. */
  readonly where: string;
  readonly itemId: string | undefined;

  constructor(where: string, problem: string, itemId?: string) {
    super('ITEM_ID_INVALID', `${where}: ${problem}`, { details: { where, itemId } });
    this.where = where;
    this.itemId = itemId;
  }
}
