import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InMemoryCheckpointStore } from '@skein/core';
import { decodeBase64, encodeBase64, type LLMMessage } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { RunnerError } from '../errors/runner-error.js';
import { type ItemResult, ZERO_USAGE } from '../output/item-result.js';
import { runDataset } from '../run/run-dataset.js';
import { qaEngine } from '../test-support/qa-engine.js';
import { readLines, tempFolder } from '../test-support/temp-folder.js';
import { fineTuningExporter } from './fine-tuning-exporter.js';
import { validateFineTuningLine } from './validate-fine-tuning-line.js';

const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 7]);
const JPEG = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 9]);
const JPEG_REF = {
  digest: `sha256:${createHash('sha256').update(JPEG).digest('hex')}`,
  size: JPEG.length,
};

/**
 * The in-memory store (which keeps the thread's inline media by digest), also holding one
 * attachment of the app's own by ref, as an app's store of uploads would; it records the reads.
 */
class AttachmentStore extends InMemoryCheckpointStore {
  readonly reads: string[] = [];
  override async readAttachment(threadId: string, digest: string): Promise<Uint8Array | undefined> {
    this.reads.push(`${threadId} ${digest}`);
    return digest === JPEG_REF.digest ? JPEG : super.readAttachment(threadId, digest);
  }
}

const question = (content: LLMMessage['content']): LLMMessage[] => [{ role: 'user', content }];

const withImages = question([
  { type: 'text', text: 'what are these?' },
  { type: 'image', mediaType: 'image/png', data: encodeBase64(PNG) },
  { type: 'image', mediaType: 'image/jpeg', ref: JPEG_REF },
  { type: 'image', mediaType: 'image/*', url: 'https://example.test/cat.webp' },
]);

interface Line {
  messages: { role: string; content: unknown }[];
}

async function run(messages: LLMMessage[], store: InMemoryCheckpointStore, runId: string) {
  const out = tempFolder();
  await runDataset({
    engine: qaEngine({ store }),
    workflowId: 'qa',
    input: ['one'],
    threadOptions: () => ({ messages }),
    output: out,
    runId,
    exports: { fineTuning: true },
  });
  return { out, results: readLines<ItemResult>(join(out, 'results.jsonl')) };
}

describe('the fine-tuning export of user images', () => {
  it('writes them as image_url parts whose data URLs decode to the bytes, refs read through the store', async () => {
    const store = new AttachmentStore();
    const { out, results } = await run(withImages, store, 'img');
    expect(results.map((r) => r.status)).toEqual(['COMPLETED']);
    const text = readFileSync(join(out, 'finetune.jsonl'), 'utf8');
    const [line] = readLines<Line>(join(out, 'finetune.jsonl'));
    expect(validateFineTuningLine(line)).toEqual([]);
    const user = line!.messages.find((m) => m.role === 'user')!;
    expect(user.content).toEqual([
      { type: 'text', text: 'what are these?' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${encodeBase64(PNG)}` } },
      { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/jpeg;base64,/) } },
      { type: 'image_url', image_url: { url: 'https://example.test/cat.webp' } },
    ]);
    const urls = (user.content as { image_url?: { url: string } }[]).flatMap((p) =>
      p.image_url ? [p.image_url.url] : [],
    );
    expect(decodeBase64(urls[0]!.split(',')[1]!)).toEqual(PNG);
    expect(decodeBase64(urls[1]!.split(',')[1]!)).toEqual(JPEG);
    expect(text.split('\n').filter(Boolean)).toHaveLength(1);
    // Read as the item's own thread: a store gives a thread only its own attachments.
    expect(store.reads).toContain(`${results[0]!.threadId} ${JPEG_REF.digest}`);
  });

  it('fails the item, naming thread, message and part, when the store does not hold the attachment', async () => {
    // The in-memory store holds the thread's own PNG, not the app's JPEG ref.
    const { out, results } = await run(withImages, new InMemoryCheckpointStore(), 'noread');
    // messages[0] is the engine's tool description; the question is messages[1].
    expect(results).toEqual([
      expect.objectContaining({
        status: 'FAILED',
        error: {
          code: 'EXPORT_FAILED',
          message: expect.stringMatching(
            /^Thread noread\/0, messages\[1\]\.content\[2\]: the image is an attachment \(sha256:[0-9a-f]{64}\) the store does not hold for this thread$/,
          ),
        },
      }),
    ]);
    expect(readFileSync(join(out, 'finetune.jsonl'), 'utf8')).toBe('');
  });

  it('fails the item the same way when the store cannot read attachments at all', async () => {
    const store = new InMemoryCheckpointStore();
    // A store that keeps no attachments has no readAttachment (the thread's own PNG is inline).
    Object.defineProperty(store, 'readAttachment', { value: undefined });
    const { results } = await run(withImages, store, 'bare');
    expect(results[0]!.error?.message).toMatch(
      /^Thread bare\/0, messages\[1\]\.content\[2\]: the image is an attachment \(sha256:[0-9a-f]{64}\) and the store cannot read attachments \(it has no readAttachment\)$/,
    );
  });

  it.each([
    [
      'audio',
      question([
        {
          type: 'audio',
          mediaType: 'audio/mpeg',
          data: encodeBase64(Uint8Array.from([0xff, 0xfb, 0x90, 0x44])),
        },
      ]),
      0,
      'takes images only, not audio parts',
    ],
    [
      'a PDF',
      question([
        { type: 'text', text: 'read this' },
        {
          type: 'file',
          mediaType: 'application/pdf',
          data: encodeBase64(new TextEncoder().encode('%PDF-1.7\n')),
        },
      ]),
      1,
      'takes images only, not file parts',
    ],
  ])(
    'refuses %s with a RunnerError naming thread, message and part',
    async (_, messages, part, why) => {
      const store = new AttachmentStore();
      const engine = qaEngine({ store });
      const { thread, result } = await engine.run('qa', { threadId: 't-media', messages });
      const exporter = fineTuningExporter();
      const refusal = await Promise.resolve(
        exporter.linesFor({
          item: { id: 'x', value: 'x' },
          result: {
            itemId: 'x',
            threadId: 't-media',
            status: 'COMPLETED',
            usage: ZERO_USAGE,
            durationMs: 0,
          },
          thread,
          store,
        }),
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(result.status).toBe('COMPLETED');
      expect(RunnerError.isInstance(refusal)).toBe(true);
      expect(refusal).toMatchObject({
        code: 'EXPORT_PART_UNSUPPORTED',
        threadId: 't-media',
        messageIndex: 1,
        partIndex: part,
      });
      expect((refusal as Error).message).toContain(why);
    },
  );
});

describe('the StableToolBench export', () => {
  it('stays text only: an item with an image fails its export', async () => {
    const out = tempFolder();
    await runDataset({
      engine: qaEngine(),
      workflowId: 'qa',
      input: [{ query_id: 1, query: 'q' }],
      itemId: 'query_id',
      threadOptions: () => ({
        messages: question([{ type: 'image', mediaType: 'image/png', data: encodeBase64(PNG) }]),
      }),
      output: out,
      runId: 'tb-img',
      exports: { toolBench: { split: 'G1' } },
    });
    const [result] = readLines<ItemResult>(join(out, 'results.jsonl'));
    expect(result).toMatchObject({ status: 'FAILED', error: { code: 'EXPORT_FAILED' } });
    expect(result!.error!.message).toContain('messages[1] must have a role and string content');
  });
});
