/**
 * Freezes `value` and everything in it. An object that is frozen already is taken as frozen all
 * the way down: every value enters thread state through here, so a frozen object is one the
 * engine froze before (walking it again would make each step cost the size of the state).
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}

/**
 * A frozen copy of a JSON value for thread state, so the caller can go on changing (or freezing)
 * its own object. Frozen objects are already state values and are shared, not copied.
 */
export function frozenCopy<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  return deepFreeze(structuredClone(value));
}
