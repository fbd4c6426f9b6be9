import { InvalidArgumentError } from '../errors/invalid-argument-error.js';

// Standard base64 (RFC 4648 section 4), strict: no whitespace, no URL-safe alphabet, padding
// always present, and the bits after the last byte zero, so one text stands for one byte string.
// The check is written out; the coding itself is the runtime's (below).
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

const SHAPE = /^[A-Za-z0-9+/]*={0,2}$/;

function valueAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code < 128 ? VALUES[code]! : -1;
}

function showChar(text: string, i: number): string {
  const code = text.codePointAt(i)!;
  return code >= 0x20 && code < 0x7f
    ? `"${text[i]}"`
    : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Why `text` is not strict standard base64, or undefined when it is. */
export function base64Problem(text: string): string | undefined {
  if (!SHAPE.test(text)) {
    for (let i = 0; i < text.length; i++)
      if (valueAt(text, i) < 0 && text[i] !== '=')
        return `invalid base64 character ${showChar(text, i)} at ${i}${text[i] === '-' || text[i] === '_' ? ' (base64url is not accepted; use the standard alphabet)' : ''}`;
    return `base64 padding "=" may only end the text, at most twice (found at ${text.indexOf('=')})`;
  }
  if (text.length % 4 !== 0)
    return `base64 length must be a multiple of 4 (this one has ${text.length} characters: padding "=" missing, or characters extra)`;
  // The bits of the last character that fall after the last byte must be zero.
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  if (pad > 0) {
    const last = valueAt(text, text.length - pad - 1);
    if ((pad === 2 && (last & 0x0f) !== 0) || (pad === 1 && (last & 0x03) !== 0))
      return `base64 is not canonical: the bits after the last byte are not zero (at ${text.length - pad - 1})`;
  }
  return undefined;
}

/** How many bytes strict base64 `text` decodes to (without decoding it). */
export function base64ByteLength(text: string): number {
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return (text.length / 4) * 3 - pad;
}

/**
 * The bytes strict base64 `text` stands for; throws `InvalidArgumentError` naming `argument`
 * when it is not strict standard base64. `maxBytes` decodes only the start (for sniffing).
 */
export function decodeBase64(text: string, argument = 'data', maxBytes = Infinity): Uint8Array {
  const problem = base64Problem(text);
  if (problem !== undefined)
    throw new InvalidArgumentError(argument, `${argument}: ${problem}`, {
      kind: 'base64',
      problem,
    });
  return decodeChecked(text, maxBytes);
}

// Node's Buffer where there is one (it codes base64 natively); atob and btoa elsewhere (browsers,
// workers). Both are lenient decoders, which is why the strict check above comes first.
interface NodeBuffer {
  from(
    data: ArrayBufferLike,
    offset: number,
    length: number,
  ): { toString(encoding: 'base64'): string };
  from(text: string, encoding: 'base64'): Uint8Array;
}
function nodeBuffer(): NodeBuffer | undefined {
  return (globalThis as { Buffer?: NodeBuffer }).Buffer;
}

/** Decodes base64 already checked by `base64Problem`: up to `maxBytes` of its start. */
export function decodeChecked(text: string, maxBytes = Infinity): Uint8Array {
  const whole = base64ByteLength(text);
  const wanted = Math.min(whole, maxBytes);
  const used = wanted < whole ? text.slice(0, Math.ceil(wanted / 3) * 4) : text;
  const buffer = nodeBuffer();
  if (buffer) {
    const decoded = buffer.from(used, 'base64');
    return new Uint8Array(decoded.buffer, decoded.byteOffset, wanted);
  }
  const binary = atob(used);
  const out = new Uint8Array(wanted);
  for (let i = 0; i < wanted; i++) out[i] = binary.charCodeAt(i);
  return out;
}

// btoa takes a "binary string" (one char per byte); building it in slices keeps
// String.fromCharCode's argument list under the engines' limits.
const SLICE = 0x2000;

/** Standard base64 of `bytes`, padded: what `decodeBase64` takes back. */
export function encodeBase64(bytes: Uint8Array): string {
  const buffer = nodeBuffer();
  if (buffer)
    return buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  const pieces: string[] = [];
  for (let i = 0; i < bytes.length; i += SLICE)
    pieces.push(
      String.fromCharCode.apply(null, bytes.subarray(i, i + SLICE) as unknown as number[]),
    );
  return btoa(pieces.join(''));
}
