import { SkeinError } from '@skein/spec';

/** The `items` expression of a MAP node did not give an array. */
export class MapItemsError extends SkeinError<'MAP_ITEMS_INVALID'> {
  static override readonly errorName = 'MapItemsError';
  readonly nodeId: string;
  readonly expression: string;
  /** `typeof` what the expression gave (`null` for null). */
  readonly got: string;

  constructor(nodeId: string, expression: string, value: unknown) {
    const got = value === null ? 'null' : typeof value;
    super(
      'MAP_ITEMS_INVALID',
      `MAP node "${nodeId}": items expression \`${expression}\` must give an array, got ${got}`,
      { details: { nodeId, expression, got } },
    );
    this.nodeId = nodeId;
    this.expression = expression;
    this.got = got;
  }
}
