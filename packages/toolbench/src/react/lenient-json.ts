import { jsonrepair } from 'jsonrepair';
import { pyJsonToJs } from '../python/python-json.js';
import { parsePyJson } from '../python/python-json-parse.js';

export type ArgumentsParsedBy = 'strict' | 'balanced' | 'repaired' | 'extracted' | 'empty';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `JSON.parse` that returns only plain objects. */
export function parseJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isPlainObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * An object as Python's `json.loads` reads it: `JSON.parse`, or, for what only Python accepts
 * (`NaN`, `Infinity`, `-Infinity`), Python's reading with those as JavaScript numbers.
 */
export function parsePythonJsonObject(text: string): Record<string, unknown> | undefined {
  const plain = parseJsonObject(text);
  if (plain !== undefined) return plain;
  const parsed = parsePyJson(text);
  if (!parsed.ok || parsed.value.kind !== 'object') return undefined;
  return pyJsonToJs(parsed.value) as Record<string, unknown>;
}

/**
 * The cheap repair for JSON that was cut off (a Finish answer stopping mid-string, a stream read
 * before its end): close the open string and the open objects and arrays, in one linear pass.
 */
export function closeJsonObject(text: string): Record<string, unknown> | undefined {
  const closers: string[] = [];
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (code === 0x5c) escaped = true;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x7b) closers.push('}');
    else if (code === 0x5b) closers.push(']');
    else if (code === 0x7d || code === 0x5d) closers.pop();
  }
  const body = escaped ? text.slice(0, -1) : text;
  return parseJsonObject(`${body}${inString ? '"' : ''}${closers.reverse().join('')}`);
}

/** `jsonrepair` (unterminated strings, missing braces, raw newlines, single quotes, …) then parse. */
export function repairJsonObject(text: string): Record<string, unknown> | undefined {
  try {
    return parseJsonObject(jsonrepair(text));
  } catch {
    return undefined;
  }
}

// `"key": value`, `key: value` or `key=value`; the value a (possibly unterminated) quoted string
// or everything up to the next comma, newline or closing brace.
const PAIR =
  /(?:^|[\s{,])["']?([A-Za-z_][\w.-]*)["']?\s*[:=]\s*("(?:[^"\\]|\\.)*"?|'[^'\n]*'?|[^,\n}]*)/g;

function extractedValue(raw: string): unknown {
  const text = raw.trim();
  if (text.startsWith('"')) {
    if (text.length > 1 && text.endsWith('"')) {
      try {
        return JSON.parse(text);
      } catch {
        return text.slice(1, -1);
      }
    }
    return text.slice(1);
  }
  if (text.startsWith("'"))
    return text.length > 1 && text.endsWith("'") ? text.slice(1, -1) : text.slice(1);
  if (/^(?:-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null)$/.test(text)) return JSON.parse(text);
  return text;
}

/** Last resort: the key-value pairs that can be read out of text that is not JSON at all. */
export function extractKeyValues(text: string): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  let found = false;
  for (const match of text.matchAll(PAIR)) {
    const key = match[1];
    const value = match[2];
    if (key === undefined || value === undefined || value.trim() === '') continue;
    Object.defineProperty(out, key, {
      value: extractedValue(value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    found = true;
  }
  return found ? out : undefined;
}
