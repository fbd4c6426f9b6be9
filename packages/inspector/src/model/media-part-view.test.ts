import type { MediaPart } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { mediaPartView } from './media-part-view.js';

const view = (part: MediaPart, readsAttachments = true) =>
  mediaPartView(part, 3, 1, readsAttachments);

describe('mediaPartView', () => {
  it('shows inline only PNG, JPEG, GIF, WebP image parts and audio parts', () => {
    const shown = (type: MediaPart['type'], mediaType: string) =>
      view({ type, mediaType, data: 'AAAA' } as MediaPart).display;
    expect(shown('image', 'image/png')).toBe('thumbnail');
    expect(shown('image', 'IMAGE/JPEG; q=1')).toBe('thumbnail');
    expect(shown('audio', 'audio/mpeg')).toBe('player');
    expect(shown('image', 'image/svg+xml')).toBe('download');
    expect(shown('image', 'text/html')).toBe('download');
    expect(shown('image', 'audio/wav')).toBe('download');
    expect(shown('file', 'image/png')).toBe('download');
  });

  it('names a download by its filename, else by type, position and index', () => {
    expect(
      view({ type: 'file', mediaType: 'application/pdf', filename: 'a.pdf', data: '' }).name,
    ).toBe('a.pdf');
    expect(
      view({ type: 'file', mediaType: 'application/pdf', filename: '  ', data: '' }).name,
    ).toBe('file-3-1.pdf');
    expect(view({ type: 'audio', mediaType: 'audio/x-unknown', data: '' }).name).toBe(
      'audio-3-1.bin',
    );
  });

  it('links only an http(s) address, and never a data: URL (its bytes are served)', () => {
    expect(
      view({ type: 'image', mediaType: 'image/png', url: 'https://x.test/a b.png' }),
    ).toMatchObject({
      display: 'address',
      url: 'https://x.test/a b.png',
      href: 'https://x.test/a%20b.png',
    });
    const script = view({ type: 'image', mediaType: 'image/png', url: 'javascript:alert(1)' });
    expect(script).toMatchObject({ display: 'address', url: 'javascript:alert(1)' });
    expect(script.href).toBeUndefined();
    const inline = view({
      type: 'image',
      mediaType: 'image/png',
      url: 'data:image/png;base64,AAAA',
    });
    expect(inline).toMatchObject({ display: 'thumbnail', size: 3 });
    expect(inline.url).toBeUndefined();
  });

  it('gives an attachment its size and dimensions, unavailable when the store cannot read it', () => {
    const ref = { digest: `sha256:${'a'.repeat(64)}`, size: 70, width: 4, height: 2 };
    const part = { type: 'image', mediaType: 'image/png', ref } as const;
    expect(view(part)).toMatchObject({ display: 'thumbnail', size: 70, width: 4, height: 2 });
    expect(view(part, false).display).toBe('unavailable');
  });
});
