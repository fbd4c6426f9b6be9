import { ToolBenchError } from '../errors/toolbench-error.js';
import { pyNumberRepr } from './python-float.js';

// Characters Python's repr() escapes besides the control range: str.isprintable() is false for
// the categories Cc, Cf, Cs, Co, Cn, Zl, Zp and every Zs except the ASCII space.
const NOT_PRINTABLE = /^[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]$/u;
const PLAIN_ASCII = /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/;

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0');
}

/** Python's `repr(str)`: single quotes unless the text holds `'` and no `"`. */
function pyStringRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  if (PLAIN_ASCII.test(text)) return `${quote}${text}${quote}`;
  let out = quote;
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${hex(code, 2)}`;
    else if (code < 0x7f) out += ch;
    else if (!NOT_PRINTABLE.test(ch)) out += ch;
    else if (code <= 0xff) out += `\\x${hex(code, 2)}`;
    else if (code <= 0xffff) out += `\\u${hex(code, 4)}`;
    else out += `\\U${hex(code, 8)}`;
  }
  return out + quote;
}

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function reprAt(value: unknown, path: string, seen: Set<object>): string {
  if (value === null || value === undefined) return 'None';
  switch (typeof value) {
    case 'string':
      return pyStringRepr(value);
    case 'boolean':
      return value ? 'True' : 'False';
    case 'number':
      return pyNumberRepr(value, 'python');
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default:
      throw ToolBenchError.unsupportedValue(path, `a ${typeof value} has no Python repr`);
  }
  if (seen.has(value)) throw ToolBenchError.unsupportedValue(path, 'the value contains a cycle');
  seen.add(value);
  let out: string;
  if (Array.isArray(value)) {
    out = `[${value.map((item, i) => reprAt(item, `${path}[${i}]`, seen)).join(', ')}]`;
  } else if (isPlainObject(value)) {
    const parts = Object.entries(value).map(
      ([key, item]) => `${pyStringRepr(key)}: ${reprAt(item, `${path}.${key}`, seen)}`,
    );
    out = `{${parts.join(', ')}}`;
  } else {
    throw ToolBenchError.unsupportedValue(
      path,
      'only plain objects, arrays and JSON scalars have a repr',
    );
  }
  seen.delete(value);
  return out;
}

/**
 * Python's `repr()` (= `str()` for containers) of a JSON-like value: dicts with `'key': value`,
 * `True`/`False`/`None`, integral numbers as ints. This is how the reference writes the function
 * list into the ToolLLaMA system prompt and the steps the pass-rate evaluator reads.
 */
export function pythonRepr(value: unknown): string {
  return reprAt(value, '$', new Set());
}
