import { InvalidArgumentError } from '@skein/spec';
import { checkNumber } from '../util/check-number.js';

/** A value as an error message shows what was given: JSON where it can be, else its text. */
export function describeValue(value: unknown): string {
  if (typeof value === 'number') return String(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Throws `INVALID_ARGUMENT` unless `value` is a string: ids and owners, which may hold any text. */
export function checkString(name: string, value: unknown): void {
  if (typeof value !== 'string')
    throw new InvalidArgumentError(name, `${name} must be a string, got ${describeValue(value)}`);
}

/** `prune`'s `keepLast`: an integer from 1 to 2^53 - 1, else `INVALID_ARGUMENT`. */
export function checkKeepLast(value: unknown): number {
  return checkNumber('keepLast', value, { min: 1, max: Number.MAX_SAFE_INTEGER, integer: true });
}
