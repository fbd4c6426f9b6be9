/**
 * What JSON can carry unchanged. Every checkpoint store serialises state as JSON, so a value that
 * JSON would drop, change or refuse (a BigInt, NaN, a Date, a cycle) must be refused where it
 * enters state: otherwise the in-memory store keeps it, SQLite changes it, and a resumed thread
 * takes another branch.
 */
export interface NonJsonValue {
  /** Where the value sits, as `$.a.b[2]`-style path below the root name given. */
  readonly path: string;
  /** What is wrong with it, in a few words. */
  readonly reason: string;
}

/** How deep JSON may nest before it is refused (keeps parse/stringify off the stack limit). */
export const MAX_JSON_DEPTH = 256;

function describe(value: unknown): string | undefined {
  switch (typeof value) {
    case 'bigint':
      return 'a BigInt (JSON has no BigInt)';
    case 'function':
      return 'a function';
    case 'symbol':
      return 'a symbol';
    case 'number':
      return Number.isFinite(value) ? undefined : `${String(value)} (JSON has only finite numbers)`;
    default:
      return undefined;
  }
}

function isPlainPrototype(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** `found` one level down, under `step` (`[i]` or `.key`). */
function under(step: string, found: NonJsonValue): NonJsonValue {
  return { path: step + found.path, reason: found.reason };
}

/**
 * The walk behind `findNonJsonValue`, with paths relative to `v`: a path is built only along the
 * way back from a problem, not for every element of a value that has none.
 */
function visit(v: unknown, depth: number, seen: Set<object>): NonJsonValue | undefined {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return undefined;
  const reason = describe(v);
  if (reason !== undefined) return { path: '', reason };
  if (typeof v === 'number') return undefined;
  if (v === undefined) return { path: '', reason: 'undefined (JSON has no undefined)' };
  const obj = v as object;
  if (depth > MAX_JSON_DEPTH)
    return { path: '', reason: `nested deeper than ${MAX_JSON_DEPTH} levels` };
  if (seen.has(obj)) return { path: '', reason: 'a cycle (the value contains itself)' };
  if (Array.isArray(obj)) {
    seen.add(obj);
    for (let i = 0; i < obj.length; i++) {
      if (!(i in obj)) return { path: `[${i}]`, reason: 'a hole in a sparse array' };
      const found = visit(obj[i], depth + 1, seen);
      if (found) return under(`[${i}]`, found);
    }
    seen.delete(obj);
    return undefined;
  }
  if (!isPlainPrototype(obj)) {
    const name = (obj as { constructor?: { name?: unknown } }).constructor?.name;
    return {
      path: '',
      reason: `an instance of ${typeof name === 'string' && name ? name : 'a class'} (only plain objects and arrays survive JSON)`,
    };
  }
  seen.add(obj);
  for (const key of Object.keys(obj)) {
    const child = (obj as Record<string, unknown>)[key];
    if (child === undefined) continue;
    const found = visit(child, depth + 1, seen);
    if (found) return under(`.${key}`, found);
  }
  seen.delete(obj);
  return undefined;
}

/**
 * Finds the first part of `value` that a JSON round trip would not give back unchanged, or
 * `undefined` when there is none. `undefined` as an object property is accepted (JSON omits the
 * key, and reading it gives `undefined` again); `undefined` at the root or in an array is not.
 */
export function findNonJsonValue(value: unknown, root = '$'): NonJsonValue | undefined {
  const found = visit(value, 0, new Set<object>());
  return found && under(root, found);
}
