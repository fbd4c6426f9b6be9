import { InvalidArgumentError } from '../errors/invalid-argument-error.js';

// Standard base64 (RFC 4648 section 4), strict: no whitespace, no URL-safe alphabet, padding
// always present, and the bits after the last byte zero, so one text stands for one byte string.
// Written out rather than taken from Buffer or atob: the contract runs anywhere (browsers,
// workers) and atob accepts what a strict decoder must refuse.
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

/** Decodes base64 already checked by `base64Problem`: up to `maxBytes` of its start. */
export function decodeChecked(text: string, maxBytes = Infinity): Uint8Array {
  const length = Math.min(base64ByteLength(text), maxBytes);
  const out = new Uint8Array(length);
  let o = 0;
  for (let i = 0; o < length; i += 4) {
    const n =
      (valueAt(text, i) << 18) |
      (valueAt(text, i + 1) << 12) |
      (Math.max(valueAt(text, i + 2), 0) << 6) |
      Math.max(valueAt(text, i + 3), 0);
    out[o++] = n >> 16;
    if (o < length) out[o++] = (n >> 8) & 0xff;
    if (o < length) out[o++] = n & 0xff;
  }
  return out;
}

/** Standard base64 of `bytes`, padded: what `decodeBase64` takes back. */
export function encodeBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out +=
      ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  if (i < bytes.length) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8);
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]!;
    out += i + 1 < bytes.length ? `${ALPHABET[(n >> 6) & 63]!}=` : '==';
  }
  return out;
}
