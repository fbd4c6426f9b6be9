import { SkeinError } from '@skein/spec';

/**
 * A state-changing request came from another origin (its `Origin` or `Sec-Fetch-Site` says so):
 * a page on another site trying to act through the user's browser. Answered 403.
 */
export class CrossOriginRefusedError extends SkeinError<'CROSS_ORIGIN_REFUSED'> {
  static override readonly errorName = 'CrossOriginRefusedError';
  readonly method: string;
  /** The `Origin` header, or `Sec-Fetch-Site: <value>` when that is what gave it away. */
  readonly from: string;

  constructor(method: string, from: string) {
    super(
      'CROSS_ORIGIN_REFUSED',
      `${method} from ${from} refused: only the inspector's own page may change anything`,
      { details: { method, from } },
    );
    this.method = method;
    this.from = from;
  }
}
