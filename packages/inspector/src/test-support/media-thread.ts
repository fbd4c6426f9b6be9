import type { CheckpointStore, LLMMessage } from '@skein/spec';
import { encodeBase64 } from '@skein/spec';
import { digestOf, tinyPng, tinyWav } from './tiny-media.js';

export const PNG = tinyPng();
export const WAV = tinyWav();
export const CSV = new TextEncoder().encode('day,city\n1,Lisbon\n2,Porto\n');
export const SVG = new TextEncoder().encode(
  '<svg xmlns="http://www.w3.org/2000/svg" onload="window.__pwned = true"><script>window.__pwned = true</script></svg>',
);
/** An address no test may reach: the page must show it, never load it. */
export const REMOTE_IMAGE = 'https://media.example.test/cat.png';
export const CSV_NAME = 'plan "final" été.csv';
/** A file part a hostile (or broken) store could hold: markup in its name and its type. */
export const SCRIPT_FILENAME =
  '<script>window.__pwned = 1</script>"><img src=x onerror="window.__pwned = 2">.txt';
export const SCRIPT_MEDIA_TYPE = 'text/html"><script>window.__pwned = 3</script>';

/**
 * The messages of thread `media-1`, by storage position:
 * 0. user: text, a PNG (inline), a WAV (inline), a CSV file with a quoted, non-ASCII name;
 * 1. user: an SVG (inline: served as an attachment only), an image by https URL, an image by
 *    attachment reference (the PNG's digest);
 * 2. tool: text and a PNG as a base64 `data:` URL;
 * 3. user: a file with markup in its filename and media type (no checker lets that through:
 *    what a tampered store holds);
 * 4. assistant: plain text.
 */
export function mediaMessages(): LLMMessage[] {
  return [
    {
      role: 'user',
      content: [
        { type: 'text', text: 'What do these show?' },
        { type: 'image', mediaType: 'image/png', data: encodeBase64(PNG) },
        { type: 'audio', mediaType: 'audio/wav', data: encodeBase64(WAV) },
        { type: 'file', mediaType: 'text/csv', filename: CSV_NAME, data: encodeBase64(CSV) },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'image', mediaType: 'image/svg+xml', data: encodeBase64(SVG) },
        { type: 'image', mediaType: 'image/png', url: REMOTE_IMAGE },
        {
          type: 'image',
          mediaType: 'image/png',
          ref: { digest: digestOf(PNG), size: PNG.length, width: 1, height: 1 },
        },
      ],
    },
    {
      role: 'tool',
      toolCallId: 'call_chart',
      name: 'chart',
      content: [
        { type: 'text', text: 'the chart:' },
        {
          type: 'image',
          mediaType: 'image/png',
          url: `data:image/png;base64,${encodeBase64(PNG)}`,
        },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'file',
          mediaType: SCRIPT_MEDIA_TYPE,
          filename: SCRIPT_FILENAME,
          data: encodeBase64(new TextEncoder().encode('<script>window.__pwned = 4</script>')),
        },
      ],
    },
    { role: 'assistant', content: 'A red dot, a song of silence and a plan.' },
  ];
}

/**
 * Saves `messages` as a thread of one checkpoint, written straight to the store (no engine, no
 * content checks: the inspector must cope with whatever a store holds). Message appends need no
 * log entry, so the empty log puts them all in the first batch.
 */
export async function saveThread(
  store: CheckpointStore,
  threadId: string,
  messages: readonly LLMMessage[],
): Promise<void> {
  await store.save({
    id: `${threadId}-cp1`,
    threadId,
    sequence: 1,
    createdAt: new Date().toISOString(),
    state: { threadId, workflowId: 'media', workflowVersion: '1', status: 'COMPLETED', step: 1 },
    conversation: { version: 1, from: { messages: 0, log: 0 }, messages, log: [] },
  });
}

/**
 * `store` with `readAttachment`, answering from `held` (thread id → attachments of the app's own
 * it may read), else as the store does (it keeps the inline media it saved by digest): a thread
 * reaches only its own attachments, as the contract says, and an unknown digest is undefined.
 * Every other method is the store's own.
 */
export function withAttachments<S extends object>(
  store: S,
  held: Readonly<Record<string, readonly Uint8Array[]>>,
): S & Required<Pick<CheckpointStore, 'readAttachment'>> {
  const own = (store as Partial<Pick<CheckpointStore, 'readAttachment'>>).readAttachment?.bind(
    store,
  );
  const readAttachment = async (threadId: string, digest: string) =>
    (Object.hasOwn(held, threadId) ? held[threadId]! : []).find((b) => digestOf(b) === digest) ??
    (await own?.(threadId, digest));
  return new Proxy(store, {
    get(target, key) {
      if (key === 'readAttachment') return readAttachment;
      const value: unknown = Reflect.get(target, key, target);
      // The store's own methods use private fields: they must run on the store itself.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as S & Required<Pick<CheckpointStore, 'readAttachment'>>;
}
