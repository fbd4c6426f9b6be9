import type { PyJsonValue } from './python-json.js';

export interface PyJsonParseOptions {
  /** Python's `strict`: when false, raw control characters are allowed inside strings. */
  readonly strict?: boolean;
}

export type PyJsonParseResult =
  | { readonly ok: true; readonly value: PyJsonValue }
  | { readonly ok: false; readonly error: string; readonly position: number };

const NUMBER = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/y;
const WHITESPACE = /[ \t\n\r]*/y;
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

class Failure {
  constructor(
    readonly message: string,
    readonly position: number,
  ) {}
}

/** A recursive-descent reader with the acceptance rules of CPython's `json.loads`. */
class PyJsonReader {
  #pos = 0;

  constructor(
    private readonly text: string,
    private readonly strict: boolean,
  ) {}

  parseDocument(): PyJsonValue {
    this.#skipWhitespace();
    const value = this.#value();
    this.#skipWhitespace();
    if (this.#pos !== this.text.length) throw new Failure('Extra data', this.#pos);
    return value;
  }

  #skipWhitespace(): void {
    WHITESPACE.lastIndex = this.#pos;
    WHITESPACE.exec(this.text);
    this.#pos = WHITESPACE.lastIndex;
  }

  #value(): PyJsonValue {
    const ch = this.text[this.#pos];
    if (ch === '{') return this.#object();
    if (ch === '[') return this.#array();
    if (ch === '"') return { kind: 'string', value: this.#string() };
    if (this.text.startsWith('null', this.#pos)) return this.#word(4, { kind: 'null' });
    if (this.text.startsWith('true', this.#pos))
      return this.#word(4, { kind: 'bool', value: true });
    if (this.text.startsWith('false', this.#pos))
      return this.#word(5, { kind: 'bool', value: false });
    if (this.text.startsWith('NaN', this.#pos))
      return this.#word(3, { kind: 'float', value: Number.NaN });
    if (this.text.startsWith('Infinity', this.#pos))
      return this.#word(8, { kind: 'float', value: Number.POSITIVE_INFINITY });
    if (this.text.startsWith('-Infinity', this.#pos))
      return this.#word(9, { kind: 'float', value: Number.NEGATIVE_INFINITY });
    NUMBER.lastIndex = this.#pos;
    const match = NUMBER.exec(this.text);
    if (match) {
      this.#pos = NUMBER.lastIndex;
      if (match[1] === undefined && match[2] === undefined)
        return { kind: 'int', literal: match[0] };
      return { kind: 'float', value: Number(match[0]) };
    }
    throw new Failure('Expecting value', this.#pos);
  }

  #word(length: number, value: PyJsonValue): PyJsonValue {
    this.#pos += length;
    return value;
  }

  #object(): PyJsonValue {
    const entries = new Map<string, PyJsonValue>();
    this.#pos++;
    this.#skipWhitespace();
    if (this.text[this.#pos] === '}') {
      this.#pos++;
      return { kind: 'object', entries };
    }
    for (;;) {
      if (this.text[this.#pos] !== '"')
        throw new Failure('Expecting property name enclosed in double quotes', this.#pos);
      const key = this.#string();
      this.#skipWhitespace();
      if (this.text[this.#pos] !== ':') throw new Failure("Expecting ':' delimiter", this.#pos);
      this.#pos++;
      this.#skipWhitespace();
      entries.set(key, this.#value());
      this.#skipWhitespace();
      const ch = this.text[this.#pos];
      this.#pos++;
      if (ch === '}') return { kind: 'object', entries };
      if (ch !== ',') throw new Failure("Expecting ',' delimiter", this.#pos - 1);
      this.#skipWhitespace();
    }
  }

  #array(): PyJsonValue {
    const items: PyJsonValue[] = [];
    this.#pos++;
    this.#skipWhitespace();
    if (this.text[this.#pos] === ']') {
      this.#pos++;
      return { kind: 'array', items };
    }
    for (;;) {
      items.push(this.#value());
      this.#skipWhitespace();
      const ch = this.text[this.#pos];
      this.#pos++;
      if (ch === ']') return { kind: 'array', items };
      if (ch !== ',') throw new Failure("Expecting ',' delimiter", this.#pos - 1);
      this.#skipWhitespace();
    }
  }

  #string(): string {
    const start = this.#pos;
    this.#pos++;
    let out = '';
    let chunkStart = this.#pos;
    for (;;) {
      if (this.#pos >= this.text.length)
        throw new Failure('Unterminated string starting at', start);
      const code = this.text.charCodeAt(this.#pos);
      if (code === 0x22) {
        out += this.text.slice(chunkStart, this.#pos);
        this.#pos++;
        return out;
      }
      if (code < 0x20 && this.strict) throw new Failure('Invalid control character at', this.#pos);
      if (code !== 0x5c) {
        this.#pos++;
        continue;
      }
      out += this.text.slice(chunkStart, this.#pos);
      const escapeChar = this.text[this.#pos + 1];
      if (escapeChar === undefined) throw new Failure('Unterminated string starting at', start);
      if (escapeChar === 'u') {
        out += this.#unicodeEscape();
      } else {
        const replacement = ESCAPES[escapeChar];
        if (replacement === undefined) throw new Failure('Invalid \\escape', this.#pos);
        out += replacement;
        this.#pos += 2;
      }
      chunkStart = this.#pos;
    }
  }

  #hex4(at: number): number | undefined {
    const digits = this.text.slice(at, at + 4);
    return /^[0-9a-fA-F]{4}$/.test(digits) ? Number.parseInt(digits, 16) : undefined;
  }

  // Python joins a high and a low surrogate escape into one code point and keeps lone ones.
  #unicodeEscape(): string {
    const first = this.#hex4(this.#pos + 2);
    if (first === undefined) throw new Failure('Invalid \\uXXXX escape', this.#pos);
    this.#pos += 6;
    if (first >= 0xd800 && first <= 0xdbff && this.text.startsWith('\\u', this.#pos)) {
      const second = this.#hex4(this.#pos + 2);
      if (second !== undefined && second >= 0xdc00 && second <= 0xdfff) {
        this.#pos += 6;
        return String.fromCharCode(first, second);
      }
    }
    return String.fromCharCode(first);
  }
}

/**
 * Reads JSON the way CPython's `json.loads` does: `NaN`/`Infinity` accepted, only ` \t\n\r` as
 * whitespace, nothing after the value, raw control characters in strings only when `strict` is
 * false. The tree keeps key order (duplicate keys: last value, first position) and int literals.
 */
export function parsePyJson(text: string, options: PyJsonParseOptions = {}): PyJsonParseResult {
  try {
    const value = new PyJsonReader(text, options.strict ?? true).parseDocument();
    return { ok: true, value };
  } catch (error) {
    if (error instanceof Failure)
      return { ok: false, error: error.message, position: error.position };
    // Nesting deep enough to exhaust the stack is a parse failure for our callers, as in Python.
    if (error instanceof RangeError) return { ok: false, error: error.message, position: 0 };
    throw error;
  }
}
