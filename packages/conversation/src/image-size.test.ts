import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { imageSize } from './image-size.js';
import { gifHeader, jpegHeader, pngHeader, webpHeader } from './test-images.js';

const side = fc.integer({ min: 1, max: 16383 });

describe('imageSize', () => {
  it.each([
    ['PNG', pngHeader],
    ['JPEG', jpegHeader],
    ['GIF', gifHeader],
    ['WebP (VP8X)', webpHeader],
  ])('reads the size a %s header states', (_, header) => {
    fc.assert(
      fc.property(side, side, (width, height) => {
        expect(imageSize(header(width, height))).toEqual({ width, height });
      }),
    );
  });

  it('gives up on anything else, and on truncated headers, without throwing', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const size = imageSize(bytes);
        if (size) expect(size.width > 0 && size.height > 0).toBe(true);
      }),
    );
    expect(imageSize(pngHeader(10, 10).subarray(0, 20))).toBeUndefined();
  });
});
