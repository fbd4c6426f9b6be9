import { findNonJsonValue } from '@skein/spec';
import { ThreadError } from '../errors/thread-error.js';

/**
 * True for the values most steps set (strings, booleans, null, finite numbers), which JSON carries
 * as they are: callers skip `requireJsonValue`, and building its message arguments, for them.
 */
export function isJsonPrimitive(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      return value === null;
    default:
      return false;
  }
}

/**
 * Throws a `ThreadError` (`VALUE_NOT_JSON`) unless a JSON round trip gives `value` back
 * unchanged: what a store cannot carry is refused where it enters state, not when a checkpoint is
 * saved (where SQLite would fail and the in-memory store would keep it, so a resumed thread would
 * see something else).
 */
export function requireJsonValue(value: unknown, target: string, root: string): void {
  if (isJsonPrimitive(value)) return;
  const found = findNonJsonValue(value, root);
  if (found) throw ThreadError.valueNotJson(target, found.path, found.reason);
}
