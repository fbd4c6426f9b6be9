import { createHash } from 'node:crypto';
import {
  type ContentPart,
  contentText,
  encodeBase64,
  type LLMRequest,
  type MediaPart,
  toolOutput,
} from '@skein/spec';
import { expect, it } from 'vitest';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { Tool } from '../tools/tool.js';
import { chatWorkflow } from '../workflow/chat-workflow.js';
import type { ConformanceSubject } from './checkpoint-store-conformance.js';

type WithStore = (test: (subject: ConformanceSubject) => Promise<void>) => Promise<void>;

// The first bytes of a PNG (its signature and IHDR of a 2x1 image): what checkContent sniffs.
const PNG = new Uint8Array([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 2,
  0, 0, 0, 1, 8, 6, 0, 0, 0,
]);
const WAV = new Uint8Array([0x52, 0x49, 0x46, 0x46]);
const digestOf = (bytes: Uint8Array) =>
  `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
const ELSEWHERE = `sha256:${'ab'.repeat(32)}`;

const chart: Tool<Record<string, never>> = {
  name: 'chart',
  description: 'Draws the chart',
  parameters: { type: 'object', properties: {} },
  execute: () =>
    toolOutput({
      content: [
        { type: 'text', text: 'the chart' },
        { type: 'image', mediaType: 'image/png', data: PNG },
      ],
    }),
};

/** An engine whose model draws the chart when the user sends parts, and answers text otherwise. */
function engineOn(store: CheckpointStore, requests: LLMRequest[] = []): SkeinEngine {
  const llm = new ScriptedLLMClient((request) => {
    requests.push(request);
    const last = request.messages.at(-1)!;
    return last.role === 'user' && typeof last.content !== 'string'
      ? { toolCalls: [{ name: 'chart', arguments: {} }] }
      : { content: `seen: ${contentText(last.content)}` };
  });
  const engine = new SkeinEngine({ llm, store });
  engine.registerTool(chart);
  engine.registerWorkflow(chatWorkflow({ tools: ['chart'] }));
  return engine;
}

const sent: ContentPart[] = [
  { type: 'text', text: 'what is on this chart? 東京' },
  { type: 'image', mediaType: 'image/png', data: PNG },
  { type: 'audio', mediaType: 'audio/wav', data: encodeBase64(WAV) },
  { type: 'file', mediaType: 'application/pdf', filename: 'q3.pdf', url: 'https://x.test/q3.pdf' },
  { type: 'file', mediaType: 'text/csv', ref: { digest: ELSEWHERE, size: 12 } },
];

const pngRef = { digest: digestOf(PNG), size: PNG.length, width: 2, height: 1 };

/** The media parts of every message a model call sent. */
const mediaSent = (request: LLMRequest) =>
  request.messages.flatMap((m) =>
    typeof m.content === 'string' ? [] : m.content.filter((p): p is MediaPart => p.type !== 'text'),
  );

/**
 * Conformance cases for messages in parts (decisions 0031 and 0033). A store that keeps
 * attachments (`readAttachment`) gives messages back with each inline image, audio clip or file
 * as a `ref` by digest, the bytes through `readAttachment` to the threads whose messages (or
 * whose fork's origin's, up to the fork) refer to them, and the engine sends a loaded thread's
 * bytes to the model. A store without it gives inline bytes back as base64. Parts by URL, and
 * refs of the app's own, come back as they went in.
 */
export function partsConformance(withStore: WithStore): void {
  it('round-trips messages whose content is parts, with each attachment by digest', () =>
    withStore(async ({ store, reopen }) => {
      const { result } = await engineOn(store).send('parts', { content: sent });
      expect(result.status).toBe('COMPLETED');
      const reopened = reopen ? await reopen() : store;
      const messages = (await reopened.load('parts'))!.conversation.messages;
      const user = messages.find((m) => m.role === 'user')!;
      const tool = messages.find((m) => m.role === 'tool')!;
      if (reopened.readAttachment === undefined) {
        expect(user.content).toEqual([
          sent[0],
          { ...sent[1], data: encodeBase64(PNG) },
          ...sent.slice(2),
        ]);
        expect(tool.content).toEqual([
          { type: 'text', text: 'the chart' },
          { type: 'image', mediaType: 'image/png', data: encodeBase64(PNG) },
        ]);
      } else {
        expect(user.content).toEqual([
          sent[0],
          { type: 'image', mediaType: 'image/png', ref: pngRef },
          {
            type: 'audio',
            mediaType: 'audio/wav',
            ref: { digest: digestOf(WAV), size: WAV.length },
          },
          ...sent.slice(3),
        ]);
        expect(tool.content).toEqual([
          { type: 'text', text: 'the chart' },
          { type: 'image', mediaType: 'image/png', ref: pngRef },
        ]);
        expect(await reopened.readAttachment('parts', digestOf(PNG))).toEqual(PNG);
        expect(await reopened.readAttachment('parts', digestOf(WAV))).toEqual(WAV);
        // An app's own ref names bytes the store never had.
        expect(await reopened.readAttachment('parts', ELSEWHERE)).toBeUndefined();
        expect(await reopened.readAttachment('nobody', digestOf(PNG))).toBeUndefined();
      }
      // The thread goes on from what the store gave back, and the model gets the bytes.
      const requests: LLMRequest[] = [];
      const again = await engineOn(reopened, requests).send('parts', 'and now?');
      expect(again.result.status).toBe('COMPLETED');
      const media = mediaSent(requests[0]!);
      expect(media.map((p) => p.type)).toEqual(['image', 'audio', 'file', 'file', 'image']);
      for (const part of [media[0]!, media[4]!]) {
        expect(part.ref).toBeUndefined();
        expect(typeof part.data === 'string' ? part.data : encodeBase64(part.data!)).toBe(
          encodeBase64(PNG),
        );
      }
      expect(media[3]!.ref).toEqual({ digest: ELSEWHERE, size: 12 });
      if (reopened !== store) await reopened.close?.();
    }));

  it('lets a thread, and a fork after the message, read an attachment; no other thread, and not after delete', () =>
    withStore(async ({ store }) => {
      if (store.readAttachment === undefined) return;
      const engine = engineOn(store);
      await engine.send('origin', 'hello');
      const before = (await store.list('origin')).at(-1)!.id;
      await engine.send('origin', { content: sent.slice(0, 2) });
      await engine.send('other', 'hello');
      await engine.fork('origin', { threadId: 'early', at: before });
      await engine.fork('origin', { threadId: 'late' });
      await engine.fork('late', { threadId: 'later' });
      const png = digestOf(PNG);
      const read = (threadId: string) => store.readAttachment!(threadId, png);
      expect(await read('origin')).toEqual(PNG);
      expect(await read('late')).toEqual(PNG);
      expect(await read('later')).toEqual(PNG);
      expect(await read('early')).toBeUndefined();
      expect(await read('other')).toBeUndefined();
      expect(await engine.readAttachment('late', png)).toEqual(PNG);
      expect(await engine.forPrincipal('someone').readAttachment('late', png)).toBeUndefined();
      // The threads it came from go; the forks keep what they show.
      await store.delete('origin');
      await store.delete('late');
      expect(await read('origin')).toBeUndefined();
      expect(await read('later')).toEqual(PNG);
      const requests: LLMRequest[] = [];
      await engineOn(store, requests).send('later', 'still there?');
      expect(mediaSent(requests[0]!).every((p) => p.ref === undefined)).toBe(true);
      await store.delete('later');
      expect(await read('later')).toBeUndefined();
      // The same bytes sent again after every thread that had them went are stored again.
      await engine.send('again', { content: sent.slice(0, 2) });
      expect(await store.readAttachment('again', png)).toEqual(PNG);
    }));
}
