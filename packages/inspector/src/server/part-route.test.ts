import { chatWorkflow, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThreadDetail } from '../model/types.js';
import {
  CSV,
  CSV_NAME,
  mediaMessages,
  PNG,
  REMOTE_IMAGE,
  SVG,
  saveThread,
  WAV,
  withAttachments,
} from '../test-support/media-thread.js';
import { rawRequest } from '../test-support/raw-request.js';
import { tempStore } from '../test-support/temp-store.js';
import { digestOf } from '../test-support/tiny-media.js';
import type { RunningInspector } from './inspector-options.js';
import { startInspector } from './start-inspector.js';

const temp = tempStore();
/** Over a store with `readAttachment` (media-1 may read the PNG; media-2 nothing). */
let inspector: RunningInspector;
/** Over the SQLite store as it is: no `readAttachment`. */
let plain: RunningInspector;

async function get(path: string, on = inspector) {
  const response = await fetch(new URL(path, on.url));
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

async function errorOf(path: string, on = inspector) {
  const response = await fetch(new URL(path, on.url));
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, code: body.error.code, message: body.error.message };
}

const ELSEWHERE = digestOf(new TextEncoder().encode('bytes no store here holds'));

/** `store` as a store that keeps no attachments would be: no readAttachment. */
function withoutAttachments<S extends object>(store: S): S {
  return new Proxy(store, {
    get(target, key) {
      if (key === 'readAttachment') return undefined;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

const part = (thread: string, position: number | string, index: number | string) =>
  `/api/threads/${thread}/messages/${position}/parts/${index}`;

beforeAll(async () => {
  await saveThread(temp.store, 'media-1', mediaMessages());
  // A reference to bytes the store never held (an app's own, kept elsewhere).
  await saveThread(temp.store, 'media-2', [
    {
      role: 'user',
      content: [{ type: 'image', mediaType: 'image/png', ref: { digest: ELSEWHERE, size: 9 } }],
    },
  ]);
  // A thread the engine wrote, from bytes a caller sent: the path every real image takes.
  const engine = new SkeinEngine({
    llm: new ScriptedLLMClient(() => ({ content: 'a red dot' })),
    store: temp.store,
  });
  engine.registerWorkflow(chatWorkflow());
  await engine.send('chat-1', {
    content: [
      { type: 'text', text: 'what is this?' },
      { type: 'image', mediaType: 'image/png', data: PNG },
    ],
  });
  inspector = await startInspector({
    store: withAttachments(temp.store, { 'media-1': [PNG] }),
  });
  plain = await startInspector({ store: withoutAttachments(temp.store) });
});

afterAll(async () => {
  await inspector.close();
  await plain.close();
  temp.dispose();
});

describe('GET /api/threads/:id/messages/:position/parts/:part', () => {
  it('answers an inline PNG with its bytes, inline, as image/png, not to be sniffed or kept', async () => {
    const { response, bytes } = await get(part('media-1', 0, 1));
    expect(response.status).toBe(200);
    expect(bytes).toEqual(PNG);
    expect(Object.fromEntries(response.headers)).toMatchObject({
      'content-type': 'image/png',
      'content-disposition': `inline; filename="image-0-1.png"; filename*=UTF-8''image-0-1.png`,
      'content-length': String(PNG.length),
      'x-content-type-options': 'nosniff',
      'cache-control': 'private, no-store',
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(response.headers.get('content-security-policy')).toContain("img-src 'self'");
  });

  it('answers a PNG the engine stored from a caller’s bytes', async () => {
    const { response, bytes } = await get(part('chat-1', 0, 1));
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(bytes).toEqual(PNG);
  });

  it('answers audio inline with its type', async () => {
    const { response, bytes } = await get(part('media-1', 0, 2));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(response.headers.get('content-disposition')).toMatch(/^inline; /);
    expect(bytes).toEqual(WAV);
  });

  it('answers a file as an attachment named by its filename, quotes and non-ASCII encoded', async () => {
    const { response, bytes } = await get(part('media-1', 0, 3));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv');
    const disposition = response.headers.get('content-disposition')!;
    expect(disposition).toBe(
      `attachment; filename="plan _final_ _t_.csv"; filename*=UTF-8''plan%20%22final%22%20%C3%A9t%C3%A9.csv`,
    );
    expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toBe(CSV_NAME);
    expect(bytes).toEqual(CSV);
  });

  it('answers an SVG image as an attachment, never inline', async () => {
    const { response, bytes } = await get(part('media-1', 1, 0));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(
      /^attachment; filename="image-1-0\.svg"/,
    );
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(bytes).toEqual(SVG);
  });

  it('answers a stored media type holding markup as plain bytes, its name made safe', async () => {
    const { response } = await get(part('media-1', 3, 0));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    const disposition = response.headers.get('content-disposition')!;
    expect(disposition).toMatch(/^attachment; filename="<script>window.__pwned = 1<\/script>_>/);
    expect(disposition.split('filename="')[1]!.split('";')[0]).not.toMatch(/["\\]/);
  });

  it('answers an image given as a data: URL (in a tool message) from its decoded bytes', async () => {
    const { response, bytes } = await get(part('media-1', 2, 1));
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(bytes).toEqual(PNG);
  });

  it('reads an attachment through store.readAttachment, for the thread that refers to it', async () => {
    const { response, bytes } = await get(part('media-1', 1, 2));
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(bytes).toEqual(PNG);
    // A ref to bytes the store never held gets nothing.
    expect(await errorOf(part('media-2', 0, 0))).toMatchObject({
      status: 404,
      code: 'PART_NOT_AVAILABLE',
      message: expect.stringContaining(`no attachment ${ELSEWHERE}`),
    });
  });

  it('answers 404 for an attachment of a store without readAttachment', async () => {
    expect(await errorOf(part('media-1', 1, 2), plain)).toMatchObject({
      status: 404,
      code: 'PART_NOT_AVAILABLE',
      message: expect.stringContaining('cannot read attachments'),
    });
  });

  it('answers 404 for a part by http(s) URL: the inspector fetches nothing', async () => {
    expect(await errorOf(part('media-1', 1, 1))).toMatchObject({
      status: 404,
      code: 'PART_NOT_AVAILABLE',
      message: expect.stringContaining('does not fetch'),
    });
  });

  it('answers 404 for a missing thread, message or part, a text part and text content', async () => {
    expect(await errorOf(part('nope', 0, 0))).toMatchObject({
      status: 404,
      code: 'CHECKPOINT_NOT_FOUND',
    });
    for (const [position, index] of [
      [5, 0], // past the last message
      ['99999999999999999999', 0], // well-formed, past any array
      [0, 4], // past the last part
      [0, 0], // a text part
      [4, 0], // a message whose content is a string
    ] as const)
      expect([position, index, await errorOf(part('media-1', position, index))]).toEqual([
        position,
        index,
        expect.objectContaining({ status: 404, code: 'PART_NOT_FOUND' }),
      ]);
  });

  it('answers 400 for an index that is not a plain non-negative integer', async () => {
    for (const bad of ['-1', '01', '1.5', '1e2', '+1', 'x', '%20', '0x1'])
      for (const path of [part('media-1', bad, 0), part('media-1', 0, bad)])
        expect([path, await errorOf(path)]).toEqual([
          path,
          expect.objectContaining({ status: 400, code: 'INVALID_ARGUMENT' }),
        ]);
  });

  it('answers HEAD without a body, and 405 to a write', async () => {
    const url = new URL(part('media-1', 0, 1), inspector.url).href;
    const head = await rawRequest(url, { method: 'HEAD' });
    expect([head.status, head.headers['content-type'], head.body]).toEqual([200, 'image/png', '']);
    const post = await rawRequest(url, {
      method: 'POST',
      headers: { origin: new URL(inspector.url).origin, 'content-type': 'application/json' },
      body: '{}',
    });
    expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD']);
  });
});

describe('the thread detail', () => {
  it('describes each media part (type, size, name, how it is shown) and sends no bytes', async () => {
    const response = await fetch(new URL('/api/threads/media-1', inspector.url));
    const text = await response.text();
    const detail = JSON.parse(text) as ThreadDetail;
    const [first, second, tool] = detail.messages;
    expect(first!.content).toBe('What do these show?');
    expect(first!.parts).toEqual([
      { type: 'text', text: 'What do these show?' },
      {
        type: 'image',
        index: 1,
        mediaType: 'image/png',
        name: 'image-0-1.png',
        display: 'thumbnail',
        size: PNG.length,
        // The store kept the bytes by digest, with the size the PNG's header states.
        digest: digestOf(PNG),
        width: 1,
        height: 1,
      },
      {
        type: 'audio',
        index: 2,
        mediaType: 'audio/wav',
        name: 'audio-0-2.wav',
        display: 'player',
        size: WAV.length,
        digest: digestOf(WAV),
      },
      {
        type: 'file',
        index: 3,
        mediaType: 'text/csv',
        name: CSV_NAME,
        display: 'download',
        size: CSV.length,
        digest: digestOf(CSV),
      },
    ]);
    expect(second!.parts).toEqual([
      expect.objectContaining({ display: 'download', name: 'image-1-0.svg', size: SVG.length }),
      {
        type: 'image',
        index: 1,
        mediaType: 'image/png',
        name: 'image-1-1.png',
        display: 'address',
        url: REMOTE_IMAGE,
        href: REMOTE_IMAGE,
      },
      expect.objectContaining({
        display: 'thumbnail',
        size: PNG.length,
        width: 1,
        height: 1,
        digest: digestOf(PNG),
      }),
    ]);
    expect(tool!.parts![1]).toMatchObject({ display: 'thumbnail', size: PNG.length });
    expect(text).not.toContain(Buffer.from(PNG).toString('base64'));
    expect(text).not.toContain(Buffer.from(WAV).toString('base64'));
    // Without readAttachment the page is told at once that the attachment cannot be shown.
    const bare = (await (
      await fetch(new URL('/api/threads/media-1', plain.url))
    ).json()) as ThreadDetail;
    expect(bare.messages[1]!.parts![2]).toMatchObject({ display: 'unavailable' });
  });
});
