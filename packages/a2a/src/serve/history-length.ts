import { malformed } from './a2a-errors.js';

/** Refuses a `historyLength` that is not a whole number (undefined: the whole history). */
export function checkHistoryLength(value: number | undefined): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 0))
    throw malformed(`historyLength must be a whole number, 0 or more, got ${value}`);
}
