import { createHash } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A real PNG of `width`×`height` red pixels (8-bit RGBA), written out chunk by chunk with real
 * CRCs and a real zlib stream, so a browser decodes it (`naturalWidth` > 0).
 */
export function tinyPng(width = 1, height = 1): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // bit depth, RGBA, deflate, adaptive filters, no interlace
  const row = [0, ...Array.from({ length: width }, () => [255, 0, 0, 255]).flat()]; // filter 0
  const pixels = Uint8Array.from(Array.from({ length: height }, () => row).flat());
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(pixels)),
      chunk('IEND', new Uint8Array(0)),
    ]),
  );
}

/** A real WAV: `samples` of silence, 8 kHz mono 16-bit PCM. */
export function tinyWav(samples = 800): Uint8Array {
  const data = samples * 2;
  const out = Buffer.alloc(44 + data);
  out.write('RIFF', 0, 'latin1');
  out.writeUInt32LE(36 + data, 4);
  out.write('WAVEfmt ', 8, 'latin1');
  out.writeUInt32LE(16, 16); // fmt chunk size
  out.writeUInt16LE(1, 20); // PCM
  out.writeUInt16LE(1, 22); // mono
  out.writeUInt32LE(8000, 24); // sample rate
  out.writeUInt32LE(16000, 28); // byte rate
  out.writeUInt16LE(2, 32); // block align
  out.writeUInt16LE(16, 34); // bits per sample
  out.write('data', 36, 'latin1');
  out.writeUInt32LE(data, 40);
  return new Uint8Array(out);
}

/** `sha256:<hex>`: the digest an attachment reference names its bytes by. */
export function digestOf(bytes: Uint8Array): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}
