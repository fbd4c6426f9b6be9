import { InvalidArgumentError } from '@skein/spec';

/**
 * Throws `InvalidArgumentError` naming the option unless `value` is absent or an integer in
 * `min..max`. A bound of NaN or Infinity would silently disable the limit it sets, and a timer
 * over 2^31 - 1 ms fires at once.
 */
export function checkIntegerOption(
  name: string,
  value: unknown,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new InvalidArgumentError(
      name,
      `${name} must be an integer from ${min} to ${max}, got ${String(value)}`,
    );
  }
}

/** The longest delay `setTimeout` honours. */
export const MAX_TIMER_MS = 2 ** 31 - 1;
