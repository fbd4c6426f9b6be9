// The media types whose bytes Skein checks, by their signatures ("magic numbers"): a part that
// declares one of them must start the way such a file starts. Other types are taken at their
// word: there is no signature to check (CSV, plain text) or no need to know them all.

/** How many bytes of a file sniffing looks at, at most (a PDF header may sit after some junk). */
export const SNIFF_BYTES = 1024;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const GIF87 = [0x47, 0x49, 0x46, 0x38, 0x37, 0x61]; // GIF87a
const GIF89 = [0x47, 0x49, 0x46, 0x38, 0x39, 0x61]; // GIF89a
const RIFF = [0x52, 0x49, 0x46, 0x46];
const WEBP = [0x57, 0x45, 0x42, 0x50];
const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  for (let i = 0; i < signature.length; i++) if (bytes[at + i] !== signature[i]) return false;
  return true;
}

// PDF readers accept the header anywhere in the first 1024 bytes (PDF 32000-1, annex H).
function isPdf(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, SNIFF_BYTES) - PDF.length;
  for (let at = 0; at <= end; at++) if (startsWith(bytes, PDF, at)) return true;
  return false;
}

const SIGNATURES: Readonly<Record<string, (bytes: Uint8Array) => boolean>> = {
  'image/png': (b) => startsWith(b, PNG),
  'image/jpeg': (b) => startsWith(b, JPEG),
  'image/gif': (b) => startsWith(b, GIF87) || startsWith(b, GIF89),
  'image/webp': (b) => startsWith(b, RIFF) && startsWith(b, WEBP, 8),
  'application/pdf': isPdf,
};

// Names in use for the same types; checked as the type they stand for.
const ALIASES: Readonly<Record<string, string>> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'application/x-pdf': 'application/pdf',
};

/** The media types `sniffMediaType` recognises (and `checkContent` checks bytes against). */
export const SNIFFED_MEDIA_TYPES: readonly string[] = Object.keys(SIGNATURES);

/** The media type `bytes` start like (one of `SNIFFED_MEDIA_TYPES`), or undefined. */
export function sniffMediaType(bytes: Uint8Array): string | undefined {
  for (const [type, matches] of Object.entries(SIGNATURES)) if (matches(bytes)) return type;
  return undefined;
}

/**
 * The checked type a media type's essence (lowercase, without parameters) stands for, or
 * undefined when its bytes cannot be checked.
 */
export function checkedMediaType(essence: string): string | undefined {
  const type = ALIASES[essence] ?? essence;
  return Object.hasOwn(SIGNATURES, type) ? type : undefined;
}

/** Whether `bytes` carry the signature of the checked media type `type`. */
export function hasSignature(bytes: Uint8Array, type: string): boolean {
  return SIGNATURES[type]?.(bytes) ?? false;
}
