import { createHash } from 'node:crypto';
import { encodeBase64 } from '@skein/spec';

/** Bytes that pass `checkContent`'s signature check for their type, for the tests. */
export const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
export const PDF = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');
export const WAV = new TextEncoder().encode('RIFF....WAVEfmt ');
export const MP3 = Uint8Array.from([0xff, 0xfb, 0x90, 0x44, 0, 0]);

export const PNG_BASE64 = encodeBase64(PNG);
export const PDF_BASE64 = encodeBase64(PDF);

export const DIGEST = `sha256:${'ab'.repeat(32)}`;

/** The digest a ref to `bytes` names. */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

/** The error an async call rejects with, for assertions on its fields. */
export async function rejection(
  promise: Promise<unknown>,
): Promise<Error & Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('expected a rejection');
}
