import { encodeBase64, type LLMMessage } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { imageTokens, mediaTokens } from './media-tokens.js';
import { pngHeader } from './test-images.js';
import { defaultTokenCounter } from './token-counter.js';

describe('media tokens', () => {
  it("follows OpenAI's high-detail tile rule", () => {
    expect(imageTokens({ width: 512, height: 512 })).toBe(255); // 1 tile
    expect(imageTokens({ width: 1024, height: 1024 })).toBe(765); // 768x768: 4 tiles
    expect(imageTokens({ width: 2048, height: 4096 })).toBe(1105); // 768x1536: 6 tiles
    expect(imageTokens({ width: 100, height: 100 })).toBe(255); // never scaled up
  });

  it('reads the size from inline PNG bytes or a ref, else counts a 1024x1024 image', () => {
    const png = pngHeader(512, 512);
    expect(mediaTokens({ type: 'image', mediaType: 'image/png', data: png })).toBe(255);
    expect(mediaTokens({ type: 'image', mediaType: 'image/png', data: encodeBase64(png) })).toBe(
      255,
    );
    const digest = `sha256:${'0'.repeat(64)}`;
    const ref = { digest, size: 1, width: 2048, height: 4096 };
    expect(mediaTokens({ type: 'image', mediaType: 'image/png', ref })).toBe(1105);
    expect(
      mediaTokens({ type: 'image', mediaType: 'image/png', url: 'https://x.test/a.png' }),
    ).toBe(765);
  });

  it('states fixed estimates for audio and files', () => {
    expect(mediaTokens({ type: 'audio', mediaType: 'audio/wav', data: 'AAAA' })).toBe(600);
    expect(mediaTokens({ type: 'file', mediaType: 'text/csv', data: 'AAAA' })).toBe(1000);
  });

  it('counts a message in parts as its text plus its media', () => {
    const text: LLMMessage = { role: 'user', content: 'what is in this picture?' };
    const parts: LLMMessage = {
      role: 'user',
      content: [
        { type: 'text', text: 'what is in this picture?' },
        { type: 'image', mediaType: 'image/png', data: pngHeader(1024, 1024) },
      ],
    };
    expect(defaultTokenCounter(parts)).toBe(defaultTokenCounter(text) + 765);
  });
});
