import { InvalidArgumentError } from '@skein/spec';

/** The range a numeric option accepts; both ends included. */
export interface NumberRange {
  readonly min: number;
  readonly max: number;
  /** Whole numbers only (default false). */
  readonly integer?: boolean;
}

function describeRange(range: NumberRange): string {
  const kind = range.integer ? 'an integer' : 'a number';
  return `${kind} from ${range.min} to ${range.max}`;
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'bigint') return `${value}n`;
  return String(value);
}

/**
 * Returns `value` when it is a number within `range`, else throws `InvalidArgumentError` naming
 * the option, the range and what was given. NaN, the infinities, numbers outside the range and
 * fractions where an integer is asked for are all refused: each of them once made a bound
 * silently mean something else (a step budget that never runs out, a timer that fires at once).
 */
export function checkNumber(option: string, value: unknown, range: NumberRange): number {
  if (
    typeof value !== 'number' ||
    Number.isNaN(value) ||
    value < range.min ||
    value > range.max ||
    (range.integer === true && !Number.isInteger(value))
  )
    throw new InvalidArgumentError(
      option,
      `${option} must be ${describeRange(range)}, got ${show(value)}`,
      { value: typeof value === 'number' ? value : show(value), ...range },
    );
  return value;
}

/** `checkNumber` for an option that may be left out: `undefined` gives `fallback`. */
export function checkOptionalNumber(
  option: string,
  value: unknown,
  range: NumberRange,
  fallback: number,
): number {
  return value === undefined ? fallback : checkNumber(option, value, range);
}
