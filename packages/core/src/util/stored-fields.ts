/** Reports a field of a loaded state that is not shaped as the engine writes it; never returns. */
export type Fail = (field: string, problem: string) => never;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

export function requireString(value: unknown, field: string, fail: Fail, optional = false): void {
  if (optional && value === undefined) return;
  if (typeof value !== 'string') fail(field, `must be a string${optional ? ' when present' : ''}`);
}

export function requireStrings(value: unknown, field: string, fail: Fail): void {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string'))
    fail(field, 'must be an array of strings');
}

/** An ISO time the engine reads back: when a wait wakes or times out. */
export function requireTime(value: unknown, field: string, fail: Fail, optional = false): void {
  if (optional && value === undefined) return;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value)))
    fail(field, `must be an ISO time${optional ? ' when present' : ''}`);
}

// An answer's schema, when a pause carries one: a JSON Schema is an object or a boolean.
export function requireSchema(value: unknown, field: string, fail: Fail): void {
  if (value !== undefined && typeof value !== 'boolean' && !isRecord(value))
    fail(field, 'must be a JSON Schema (an object or a boolean) when present');
}
