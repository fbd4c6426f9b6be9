// Image headers of a given size, for the tests of size reading and token counting.
const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const be16 = (n: number) => [(n >> 8) & 255, n & 255];
const le16 = (n: number) => [n & 255, (n >> 8) & 255];
const le24 = (n: number) => [n & 255, (n >> 8) & 255, (n >> 16) & 255];
const text = (s: string) => [...s].map((c) => c.charCodeAt(0));

export function pngHeader(width: number, height: number): Uint8Array {
  return new Uint8Array([
    0x89,
    ...text('PNG\r\n\x1a\n'),
    0,
    0,
    0,
    13,
    ...text('IHDR'),
    ...be32(width),
    ...be32(height),
    8,
    6,
    0,
    0,
    0,
  ]);
}

export function jpegHeader(width: number, height: number): Uint8Array {
  const app1 = [0xff, 0xe1, ...be16(2 + 100), ...new Array(100).fill(0)];
  const sof0 = [0xff, 0xc0, ...be16(17), 8, ...be16(height), ...be16(width), 3];
  return new Uint8Array([
    0xff,
    0xd8,
    ...app1,
    0xff,
    0xdb,
    0,
    4,
    0,
    0,
    ...sof0,
    ...new Array(12).fill(0),
  ]);
}

export const gifHeader = (w: number, h: number) =>
  new Uint8Array([...text('GIF89a'), ...le16(w), ...le16(h), 0, 0, 0]);

export const webpHeader = (w: number, h: number) =>
  new Uint8Array([
    ...text('RIFF'),
    0,
    0,
    0,
    0,
    ...text('WEBPVP8X'),
    10,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    ...le24(w - 1),
    ...le24(h - 1),
    0,
    0,
  ]);
