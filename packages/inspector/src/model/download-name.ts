import type { MediaPart } from '@skein/spec';

// Extensions for the types a model or a tool commonly hands over; anything else is `.bin`, which
// says "bytes" rather than guessing wrong.
const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/webm': 'webm',
  'audio/flac': 'flac',
  'application/pdf': 'pdf',
  'application/json': 'json',
  'application/zip': 'zip',
  'text/plain': 'txt',
  'text/csv': 'csv',
  'text/markdown': 'md',
  'text/html': 'html',
};

/** `image/PNG; q=1` → `image/png`: the part of a media type that names it. */
export function mediaEssence(mediaType: string): string {
  return mediaType.split(';', 1)[0]!.trim().toLowerCase();
}

/**
 * What a part's download is called: its `filename` when it has a usable one, else its type, the
 * message's storage position and the part's index (`image-3-1.png`), which stay the same however
 * often the page is loaded.
 */
export function downloadName(part: MediaPart, position: number, index: number): string {
  const given = part.type === 'file' ? part.filename?.trim() : undefined;
  if (given) return given;
  return `${part.type}-${position}-${index}.${EXTENSIONS[mediaEssence(part.mediaType)] ?? 'bin'}`;
}
