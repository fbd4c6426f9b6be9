import { SkeinError } from '@skein/spec';

/**
 * A value that cannot enter thread state: every store keeps state as JSON, so a BigInt, NaN, a
 * function, a Date or a cycle would be refused or changed by one store and kept by another.
 */
export class ValueNotJsonError extends SkeinError<'VALUE_NOT_JSON'> {
  static override readonly errorName = 'ValueNotJsonError';
  /** Where the value was going (`variable "total"`, `input`, `output of node "calc"`). */
  readonly target: string;
  /** The offending part, e.g. `vars.total.items[2]`. */
  readonly path: string;
  /** What is wrong with it, e.g. `a BigInt (JSON has no BigInt)`. */
  readonly reason: string;

  constructor(target: string, path: string, reason: string) {
    super(
      'VALUE_NOT_JSON',
      `${target[0]!.toUpperCase()}${target.slice(1)} cannot be stored: ${path} is ${reason}; thread state holds plain JSON only`,
      { details: { target, path, reason } },
    );
    this.target = target;
    this.path = path;
    this.reason = reason;
  }
}
