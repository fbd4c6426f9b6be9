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

/**
 * A copy of `record` with `name` set to `value` (see `setEntry`). Copied, then set: a spread
 * followed by a computed key takes one of V8's slow paths, and thread state takes this path at
 * every step.
 */
export function withEntry(
  record: Readonly<Record<string, unknown>>,
  name: string,
  value: unknown,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...record };
  setEntry(next, name, value);
  return next;
}
