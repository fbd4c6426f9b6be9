import { randomUUID } from 'node:crypto';

function hasNegativeZero(value: unknown): boolean {
  if (typeof value === 'number') return value === 0 && 1 / value < 0;
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(hasNegativeZero);
  return Object.values(value).some(hasNegativeZero);
}

// Stands in for -0 while stringifying; random per process, so no stored string can collide.
const MARKER = `\u0000skein-negative-zero-${randomUUID()}\u0000`;
const QUOTED_MARKER = JSON.stringify(MARKER);

/**
 * `JSON.stringify` for a value `findNonJsonValue` accepted, keeping `-0`: JSON.stringify writes it
 * as `0`, but `-0` is valid JSON text and `JSON.parse` reads it back as -0, so the stored text
 * parses to exactly the value saved (the in-memory store keeps -0 too).
 */
export function stringifyExact(value: unknown): string {
  if (!hasNegativeZero(value)) return JSON.stringify(value);
  return JSON.stringify(value, (_key, v: unknown) => (Object.is(v, -0) ? MARKER : v)).replaceAll(
    QUOTED_MARKER,
    '-0',
  );
}
