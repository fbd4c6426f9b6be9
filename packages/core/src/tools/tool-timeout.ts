import { checkNumber, type NumberRange } from '../util/check-number.js';

/** The longest delay Node's timers keep; a longer (or negative, or NaN) one fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A tool time limit: what Node's timers can wait for. */
export const TIMEOUT_RANGE: NumberRange = { min: 1, max: MAX_TIMER_MS };

/** Why `value` cannot be a tool time limit named `option`, or `undefined` when it can. */
export function timeoutProblem(option: string, value: unknown): string | undefined {
  try {
    checkNumber(option, value, TIMEOUT_RANGE);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}
