import { findNonJsonValue, MAX_JSON_DEPTH, type NonJsonValue } from '@skein/spec';

const REFUSED = Symbol('refused');

function isPlainPrototype(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// One pass that checks, copies and freezes, without building a path per node: metadata is copied
// on every append that has it, so this is on the hot path. Anything doubtful is REFUSED and left
// to findNonJsonValue, which says where and why. A cycle shows up as nesting past the limit.
function copy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : REFUSED;
    case 'object':
      break;
    default:
      return REFUSED;
  }
  if (value === null) return null;
  if (depth > MAX_JSON_DEPTH) return REFUSED;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return REFUSED;
      const child = copy(value[i], depth + 1);
      if (child === REFUSED) return REFUSED;
      out[i] = child;
    }
    return Object.freeze(out);
  }
  if (!isPlainPrototype(value)) return REFUSED;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const raw = (value as Record<string, unknown>)[key];
    if (raw === undefined) continue; // as JSON would
    const child = copy(raw, depth + 1);
    if (child === REFUSED) return REFUSED;
    // A `__proto__` key must stay data; assigning it would set the copy's prototype.
    if (key === '__proto__')
      Object.defineProperty(out, key, { value: child, enumerable: true, writable: true });
    else out[key] = child;
  }
  return Object.freeze(out);
}

/**
 * A deep copy of `value`, frozen at every level, so neither the caller (who keeps the original)
 * nor a reader (who gets the copy) can change stored history — or, when JSON could not carry
 * `value` unchanged, what `findNonJsonValue` says is wrong and where (below `root`).
 * `undefined` properties are left out of the copy, as JSON would.
 */
export function frozenJsonCopy(
  value: unknown,
  root: string,
): { readonly copy: unknown } | { readonly problem: NonJsonValue } {
  const copied = copy(value, 0);
  if (copied !== REFUSED) return { copy: copied };
  const problem = findNonJsonValue(value, root);
  return problem ? { problem } : { problem: { path: root, reason: 'not plain JSON data' } };
}
