/** An image's width and height in pixels. */
export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => u16be(b, i) * 0x10000 + u16be(b, i + 2);
const ascii = (b: Uint8Array, i: number, n: number) => String.fromCharCode(...b.subarray(i, i + n));

function positive(width: number, height: number): ImageSize | undefined {
  return width > 0 && height > 0 ? { width, height } : undefined;
}

function png(b: Uint8Array): ImageSize | undefined {
  // The IHDR chunk is first: width and height right after its type.
  return b.length >= 24 && ascii(b, 12, 4) === 'IHDR'
    ? positive(u32be(b, 16), u32be(b, 20))
    : undefined;
}

function gif(b: Uint8Array): ImageSize | undefined {
  return b.length >= 10 ? positive(u16le(b, 6), u16le(b, 8)) : undefined;
}

// A start-of-frame marker (C0 to CF, but C4, C8 and CC are other segments) holds the size; the
// segments before it (EXIF, tables) are skipped by their lengths.
function jpeg(b: Uint8Array): ImageSize | undefined {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return positive(u16be(b, i + 7), u16be(b, i + 5));
    i += 2 + u16be(b, i + 2);
  }
  return undefined;
}

function webp(b: Uint8Array): ImageSize | undefined {
  if (b.length < 30) return undefined;
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8X') return positive(u24le(b, 24) + 1, u24le(b, 27) + 1);
  if (chunk === 'VP8 ') return positive(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  if (chunk === 'VP8L') {
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return positive((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  return undefined;
}

/**
 * The size a PNG, GIF, JPEG or WebP header states, from the image's first bytes (a JPEG's
 * size can come after its EXIF data: pass a generous start); undefined for anything else.
 */
export function imageSize(head: Uint8Array): ImageSize | undefined {
  if (head[0] === 0x89 && ascii(head, 1, 3) === 'PNG') return png(head);
  if (ascii(head, 0, 4) === 'GIF8') return gif(head);
  if (head[0] === 0xff && head[1] === 0xd8) return jpeg(head);
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP') return webp(head);
  return undefined;
}
