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
 * A shallow copy of `source`'s own enumerable properties, to add more to. Not a spread: on Node
 * 20 (V8 11.3) a spread of an object that is not frozen, followed by any new property, gives the
 * result a hidden class of its own every time, allocated in the old generation, and every read
 * of such objects misses V8's inline caches (decision 0009). `Object.assign` shares one hidden
 * class, but would set the prototype for an own `__proto__` key: such a source is spread.
 */
export function plainCopy<T extends object>(source: T): T {
  return Object.hasOwn(source, '__proto__') ? { ...source } : Object.assign({}, source);
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
