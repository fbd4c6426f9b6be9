import { SkeinError } from '@skein/spec';

export type ReActParseFailure =
  /** No line starting with `Action:`. */
  | 'missing-action'
  /** No line starting with `Action Input:` after the Action line. */
  | 'missing-action-input'
  /** The Action line names nothing (the reference would silently call the first function). */
  | 'empty-action'
  /** The Action Input holds nothing that reads as a JSON object, even after repair. */
  | 'invalid-action-input';

/** A ReAct reply the tolerant parser cannot turn into an action; `reason` says what is missing. */
export class ReActParseError extends SkeinError<'REACT_PARSE_ERROR'> {
  static override readonly errorName = 'ReActParseError';
  readonly reason: ReActParseFailure;
  /** The marker that was looked for, when one is missing. */
  readonly marker: string | undefined;

  constructor(
    reason: ReActParseFailure,
    message: string,
    details: { marker?: string; complete?: boolean; end?: number; action?: string } = {},
  ) {
    super('REACT_PARSE_ERROR', message, { details: { reason, ...details } });
    this.reason = reason;
    this.marker = details.marker;
  }
}
