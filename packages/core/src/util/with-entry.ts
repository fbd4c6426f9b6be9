/**
 * Sets `name` on `record` as an own property, even `__proto__` (a node id or variable name never
 * becomes the prototype).
 */
export function setEntry(record: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__')
    Object.defineProperty(record, name, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else record[name] = value;
}

/** A shallow copy of `source`'s own enumerable properties (an own `__proto__` key stays a key). */
export function plainCopy<T extends object>(source: T): T {
  return { ...source };
}

/** A copy of `record` with `name` set to `value` (see `setEntry` and `plainCopy`). */
export function withEntry(
  record: Readonly<Record<string, unknown>>,
  name: string,
  value: unknown,
): Record<string, unknown> {
  const next = plainCopy(record) as Record<string, unknown>;
  setEntry(next, name, value);
  return next;
}
