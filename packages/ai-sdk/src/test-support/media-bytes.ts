import { encodeBase64 } from '@skein/spec';

/** The eight bytes every PNG starts with, then `rest`: what `checkContent` accepts as a PNG. */
export function pngBytes(...rest: number[]): Uint8Array {
  return new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...rest]);
}

/** A PDF header and a body: what `checkContent` accepts as a PDF. */
export const PDF_BYTES = new TextEncoder().encode('%PDF-1.7\n%%EOF\n');

export function base64Of(bytes: Uint8Array): string {
  return encodeBase64(bytes);
}

/** `sha256:<hex>` of `bytes`, as an `AttachmentRef.digest`. */
export async function digestOf(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return `sha256:${Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}
