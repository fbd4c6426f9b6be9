import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { chatWorkflow, InMemoryCheckpointStore, SkeinEmitter, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { encodeBase64, type LLMMessage } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { instrumentSkein } from './index.js';
import { startTracing } from './test-support/tracing.js';

// Long enough that their base64 could not turn up in a span by chance.
const PNG = Uint8Array.from([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  ...Array.from({ length: 300 }, (_, i) => (i * 37 + 11) % 256),
]);
const PDF = new TextEncoder().encode(
  `%PDF-1.7\n${'stream of a quarterly report '.repeat(20)}%%EOF\n`,
);
const PNG_BASE64 = encodeBase64(PNG);
const PDF_BASE64 = encodeBase64(PDF);

/** Everything a span exports, as one string: name, attributes, events, links, status. */
function exported(span: ReadableSpan): string {
  return JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    events: span.events,
    links: span.links,
    status: span.status,
  });
}

async function chatWithMedia(captureContent: boolean) {
  const tracing = startTracing();
  const engine = new SkeinEngine({
    llm: new ScriptedLLMClient(() => ({ content: 'a chart and a report' })),
    store: new InMemoryCheckpointStore(),
  });
  engine.registerWorkflow(chatWorkflow());
  instrumentSkein(engine, { tracer: tracing.tracer, captureContent });
  const { result } = await engine.send('t1', {
    content: [
      { type: 'text', text: 'what are these?' },
      { type: 'image', mediaType: 'image/png', data: PNG },
      { type: 'file', mediaType: 'application/pdf', filename: 'q3.pdf', data: PDF_BASE64 },
    ],
  });
  expect(result.status).toBe('COMPLETED');
  const chats = tracing.spans().filter((s) => s.name.startsWith('chat'));
  expect(chats).toHaveLength(1);
  return { tracing, chat: chats[0]! };
}

describe('a model call with an image and a PDF', () => {
  it('records their types and sizes, and no base64 anywhere', async () => {
    const { tracing, chat } = await chatWithMedia(true);
    expect(chat.attributes).toMatchObject({
      'skein.llm.input.media.count': 2,
      'skein.llm.input.media.image.count': 1,
      'skein.llm.input.media.file.count': 1,
      'skein.llm.input.media.types': ['image', 'file'],
      'skein.llm.input.media.mime_types': ['image/png', 'application/pdf'],
      'skein.llm.input.media.sizes': [PNG.length, PDF.length],
      'skein.llm.input.media.bytes': PNG.length + PDF.length,
    });
    const input = JSON.parse(chat.attributes['gen_ai.input.messages'] as string);
    expect(input.at(-1)).toEqual({
      role: 'user',
      parts: [
        { type: 'text', content: 'what are these?' },
        { type: 'image', mime_type: 'image/png', size: PNG.length },
        { type: 'file', mime_type: 'application/pdf', size: PDF.length, filename: 'q3.pdf' },
      ],
    });
    for (const span of tracing.spans()) {
      const text = exported(span);
      expect(text).not.toContain(PNG_BASE64);
      expect(text).not.toContain(PDF_BASE64);
      expect(text).not.toContain(PNG_BASE64.slice(0, 40));
    }
    // The answer was text: no output media attributes.
    expect(Object.keys(chat.attributes).some((k) => k.startsWith('skein.llm.output'))).toBe(false);
  });

  it('records types and sizes without captureContent too, and no messages', async () => {
    const { chat } = await chatWithMedia(false);
    expect(chat.attributes['skein.llm.input.media.sizes']).toEqual([PNG.length, PDF.length]);
    expect('gen_ai.input.messages' in chat.attributes).toBe(false);
  });
});

describe('media parts held elsewhere', () => {
  const digest = `sha256:${'ab'.repeat(32)}`;
  const parts: LLMMessage['content'] = [
    { type: 'image', mediaType: 'image/png', url: `data:image/png;base64,${PNG_BASE64}` },
    { type: 'image', mediaType: 'image/*', url: 'https://example.test/cat.png' },
    { type: 'audio', mediaType: 'audio/wav', ref: { digest, size: 48_000 } },
  ];

  function modelCall(request: readonly LLMMessage[], answer: LLMMessage) {
    const tracing = startTracing();
    const events = new SkeinEmitter();
    instrumentSkein({ events }, { tracer: tracing.tracer, captureContent: true });
    events.emit('llm:request', {
      threadId: 't',
      nodeId: 'n',
      round: 0,
      model: 'm',
      messages: request,
      tools: [],
    });
    events.emit('llm:response', {
      threadId: 't',
      nodeId: 'n',
      round: 0,
      message: answer,
      finishReason: 'stop',
    });
    return tracing.span('chat m');
  }

  it('a data: URL is sized and never recorded, an http(s) URL is a uri part, a ref has its size', () => {
    const chat = modelCall(
      [
        { role: 'user', content: parts },
        { role: 'tool', toolCallId: 'c1', content: [{ type: 'text', text: 'chart:' }, parts[0]!] },
      ],
      { role: 'assistant', content: [{ type: 'text', text: 'here: ' }, parts[2]!] },
    );
    expect(chat.attributes).toMatchObject({
      'skein.llm.input.media.types': ['image', 'image', 'audio', 'image'],
      'skein.llm.input.media.sizes': [PNG.length, -1, 48_000, PNG.length],
      'skein.llm.input.media.bytes': 2 * PNG.length + 48_000,
      'skein.llm.input.media.image.count': 3,
      'skein.llm.input.media.audio.count': 1,
      'skein.llm.output.media.count': 1,
      'skein.llm.output.media.audio.count': 1,
      'skein.llm.output.media.sizes': [48_000],
    });
    const input = JSON.parse(chat.attributes['gen_ai.input.messages'] as string);
    expect(input[0].parts).toEqual([
      { type: 'image', mime_type: 'image/png', size: PNG.length },
      { type: 'uri', modality: 'image', mime_type: 'image/*', uri: 'https://example.test/cat.png' },
      { type: 'audio', mime_type: 'audio/wav', size: 48_000 },
    ]);
    expect(input[1].parts).toEqual([
      { type: 'tool_call_response', id: 'c1', response: 'chart:' },
      { type: 'image', mime_type: 'image/png', size: PNG.length },
    ]);
    const output = JSON.parse(chat.attributes['gen_ai.output.messages'] as string);
    expect(output[0].parts).toEqual([
      { type: 'text', content: 'here: ' },
      { type: 'audio', mime_type: 'audio/wav', size: 48_000 },
    ]);
    expect(exported(chat)).not.toContain(PNG_BASE64.slice(0, 40));
    expect(exported(chat)).not.toContain('data:');
  });

  it('an unreadable length counts as unknown rather than failing the span', () => {
    const chat = modelCall(
      [{ role: 'user', content: [{ type: 'image', mediaType: 'image/png', data: 'abc' }] }],
      { role: 'assistant', content: 'ok' },
    );
    expect(chat.attributes['skein.llm.input.media.sizes']).toEqual([-1]);
    expect(chat.attributes['skein.llm.input.media.bytes']).toBe(0);
  });

  it('text-only parts keep the one text part and no media attributes', () => {
    const chat = modelCall(
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
        },
      ],
      { role: 'assistant', content: 'ok' },
    );
    expect(JSON.parse(chat.attributes['gen_ai.input.messages'] as string)).toEqual([
      { role: 'user', parts: [{ type: 'text', content: 'ab' }] },
    ]);
    expect(Object.keys(chat.attributes).some((k) => k.includes('.media.'))).toBe(false);
  });
});
