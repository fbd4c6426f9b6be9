import { ToolBenchError } from '../errors/toolbench-error.js';
import { pyFloatRepr, pyNumberRepr } from './python-float.js';

/** A JSON value as Python's `json` module holds it: key order kept, ints apart from floats. */
export type PyJsonValue =
  | { readonly kind: 'object'; readonly entries: ReadonlyMap<string, PyJsonValue> }
  | { readonly kind: 'array'; readonly items: readonly PyJsonValue[] }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'int'; readonly literal: string }
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'null' };

const SAFE_JSON_CHARS = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const SHORT_ESCAPES: Readonly<Record<number, string>> = {
  34: '\\"',
  92: '\\\\',
  8: '\\b',
  12: '\\f',
  10: '\\n',
  13: '\\r',
  9: '\\t',
};

/** How `json.dumps` writes text: `ensureAscii` is Python's `ensure_ascii` (its default: true). */
export interface PyJsonDumpOptions {
  /** `\uXXXX` for every non-ASCII character (true, Python's default) or the characters themselves. */
  readonly ensureAscii?: boolean;
}

// With ensure_ascii=False Python escapes only these (c_encode_basestring): quotes, backslashes
// and C0 controls; everything else, DEL and lone surrogates included, is written as it is.
function needsEscape(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x22 || code === 0x5c) return true;
  }
  return false;
}

/**
 * A string as `json.dumps` writes it: with `ensureAscii` (Python's default) `\uXXXX` for every
 * non-ASCII UTF-16 unit, without it only quotes, backslashes and control characters escaped.
 */
function pyJsonString(text: string, ensureAscii = true): string {
  if (SAFE_JSON_CHARS.test(text) || (!ensureAscii && !needsEscape(text))) return `"${text}"`;
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const short = SHORT_ESCAPES[code];
    if (short !== undefined) out += short;
    else if (code >= 0x20 && (code <= 0x7e || !ensureAscii)) out += text[i];
    else out += `\\u${code.toString(16).padStart(4, '0')}`;
  }
  return `${out}"`;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function dumpAt(value: unknown, path: string, seen: Set<object>, ascii: boolean): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return pyJsonString(value, ascii);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      return pyNumberRepr(value, 'json');
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default:
      throw ToolBenchError.unsupportedValue(path, `a ${typeof value} cannot be written as JSON`);
  }
  if (seen.has(value)) throw ToolBenchError.unsupportedValue(path, 'the value contains a cycle');
  seen.add(value);
  let out: string;
  if (Array.isArray(value)) {
    out = `[${value.map((item, i) => (item === undefined ? 'null' : dumpAt(item, `${path}[${i}]`, seen, ascii))).join(', ')}]`;
  } else if (isPlainObject(value)) {
    const parts: string[] = [];
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      parts.push(`${pyJsonString(key, ascii)}: ${dumpAt(item, `${path}.${key}`, seen, ascii)}`);
    }
    out = `{${parts.join(', ')}}`;
  } else {
    throw ToolBenchError.unsupportedValue(
      path,
      'only plain objects, arrays and JSON scalars are JSON',
    );
  }
  seen.delete(value);
  return out;
}

/**
 * `json.dumps(value)` with Python's separators `", "` and `": "`, `NaN`/`Infinity` allowed, and
 * non-ASCII escaped as `\uXXXX` unless `ensureAscii` is false. Integral numbers are written as
 * ints (JSON cannot tell `1.0` from `1` once parsed); use {@link dumpPyJson} on a parsed tree to
 * keep that distinction.
 */
export function pythonJsonDumps(value: unknown, options: PyJsonDumpOptions = {}): string {
  return dumpAt(value, '$', new Set(), options.ensureAscii ?? true);
}

/** `json.dumps` of a tree read by `parsePyJson`: byte-exact with Python for any input. */
export function dumpPyJson(value: PyJsonValue, options: PyJsonDumpOptions = {}): string {
  return dumpTree(value, options.ensureAscii ?? true);
}

function dumpTree(value: PyJsonValue, ascii: boolean): string {
  switch (value.kind) {
    case 'object': {
      const parts: string[] = [];
      for (const [key, item] of value.entries)
        parts.push(`${pyJsonString(key, ascii)}: ${dumpTree(item, ascii)}`);
      return `{${parts.join(', ')}}`;
    }
    case 'array':
      return `[${value.items.map((item) => dumpTree(item, ascii)).join(', ')}]`;
    case 'string':
      return pyJsonString(value.value, ascii);
    case 'int':
      return BigInt(value.literal).toString();
    case 'float':
      return pyFloatRepr(value.value, 'json');
    case 'bool':
      return value.value ? 'true' : 'false';
    case 'null':
      return 'null';
  }
}

/** The tree as a plain JavaScript value (ints beyond 2^53 lose precision, as with JSON.parse). */
export function pyJsonToJs(value: PyJsonValue): unknown {
  switch (value.kind) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, item] of value.entries) {
        Object.defineProperty(out, key, {
          value: pyJsonToJs(item),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    case 'array':
      return value.items.map(pyJsonToJs);
    case 'string':
    case 'float':
    case 'bool':
      return value.value;
    case 'int':
      return Number(value.literal);
    case 'null':
      return null;
  }
}
