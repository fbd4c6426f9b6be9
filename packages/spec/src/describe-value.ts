import { findNonJsonValue } from './json-value.js';

/**
 * A short text for a value from outside (a provider's chunk, a caller's argument) to put in an
 * error message: its JSON, cut to `maxLength`, or a plain description when JSON cannot carry it
 * (too deeply nested, a cycle, a BigInt), since `JSON.stringify` would throw `RangeError` there.
 */
export function describeValue(value: unknown, maxLength = 200): string {
  if (value === undefined) return 'undefined';
  const problem = findNonJsonValue(value);
  if (problem !== undefined) {
    const kind = Array.isArray(value)
      ? 'an array'
      : typeof value === 'object'
        ? 'an object'
        : typeof value;
    return `${kind} (not JSON: ${problem.reason} at ${problem.path})`;
  }
  const text = JSON.stringify(value) ?? String(value);
  return text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
}

/**
 * `value` itself when JSON carries it unchanged, else its description: what error details and
 * warnings keep of outside data, so storing or logging them cannot throw.
 */
export function jsonSafe(value: unknown): unknown {
  return findNonJsonValue(value) === undefined ? value : describeValue(value);
}
