/**
 * JSON with object keys sorted at every level, so two values JSON would carry alike compare as
 * equal strings whatever the order their keys were written in.
 */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, nested: unknown) => {
    if (typeof nested !== 'object' || nested === null || Array.isArray(nested)) return nested;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(nested).sort())
      sorted[key] = (nested as Record<string, unknown>)[key];
    return sorted;
  });
}

/** Whether `a` and `b` are the same JSON value (key order aside). */
export function sameJson(a: unknown, b: unknown): boolean {
  // Two values that are not both objects (or arrays) are the same only when equal: no JSON needed.
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return a === b;
  return canonicalJson(a) === canonicalJson(b);
}
