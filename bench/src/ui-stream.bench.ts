import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createChatHandler,
  createUIMessageStreamResponse,
  fromLanguageModel,
  toUIMessageStream,
} from '@skein/ai-sdk';
import { chatWorkflow, InMemoryCheckpointStore, SkeinEngine, type ThreadEvent } from '@skein/core';
import {
  createUIMessageStreamResponse as aiCreateUIMessageStreamResponse,
  createUIMessageStream,
  streamText,
} from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { type BenchRow, measure } from './harness.js';
import type { BenchSuite } from './suite.js';

// Issue 34's figures for the UI stream.
//
// Per token: one run of TOKENS `llm:token` events (with the events around them: node, model
// request and response, checkpoint, thread end), served as a Response body and read to its end:
// - Skein: `toUIMessageStream` over those events + `createUIMessageStreamResponse`, what the chat
//   handler serves;
// - plain SSE: the same events as `data: <event JSON>` frames through the same kind of stream,
//   the floor the target is set against (≤ 1.5×);
// - the ai package: `createUIMessageStream` writing the same tokens as UI parts, then its own
//   `createUIMessageStreamResponse`; and `streamText(...).toUIMessageStreamResponse()` over a
//   MockLanguageModelV3 streaming the same tokens (the whole AI SDK path from a model).
//
// First token: a MockLanguageModelV3 streams a short answer; the time from the moment it emits its
// first text part to the moment the client reads the first `text-delta` frame from a 127.0.0.1
// socket, p50 over LATENCY_RUNS requests: Skein (the model through `fromLanguageModel`, an
// engine and the chat handler) against `streamText(...).pipeUIMessageStreamToResponse` on a
// plain Node server.

const SUITE = 'ui-stream';
const TOKENS = 20_000;
const RUNS = { warmup: 3, runs: 9 };
const LATENCY_RUNS = 200;
const TOKEN = 'tok ';

function runEvents(): ThreadEvent[] {
  const threadId = 'bench';
  const nodeId = 'reply';
  const events: ThreadEvent[] = [
    { type: 'node:started', threadId, nodeId, nodeType: 'LLM', step: 1 },
    { type: 'llm:request', threadId, nodeId, round: 0, messages: [], tools: [] },
  ];
  for (let i = 0; i < TOKENS; i++)
    events.push({ type: 'llm:token', threadId, nodeId, delta: TOKEN });
  events.push(
    {
      type: 'llm:response',
      threadId,
      nodeId,
      round: 0,
      finishReason: 'stop',
      message: { role: 'assistant', content: TOKEN.repeat(TOKENS) },
    },
    { type: 'node:completed', threadId, nodeId, nodeType: 'LLM', step: 1, durationMs: 1 },
    { type: 'checkpoint:saved', threadId, checkpointId: 'bench:1', step: 1 },
    { type: 'thread:completed', threadId, status: 'COMPLETED', steps: 1 },
  );
  return events;
}

/** Reads a response body to its end; returns its size in bytes. */
async function drain(response: Response): Promise<number> {
  let bytes = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

/** The plain-SSE floor: each event as one `data:` frame, then `[DONE]`, as a Response body. */
function plainSse(events: readonly ThreadEvent[]): Response {
  const encoder = new TextEncoder();
  const source = new ReadableStream<ThreadEvent>({
    start(controller) {
      for (const event of events) controller.enqueue(event);
      controller.close();
    },
  });
  const body = source.pipeThrough(
    new TransformStream<ThreadEvent, Uint8Array>({
      transform: (event, c) => c.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`)),
      flush: (c) => c.enqueue(encoder.encode('data: [DONE]\n\n')),
    }),
  );
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}

function skeinResponse(events: readonly ThreadEvent[]): Response {
  const stream = toUIMessageStream(
    async (onEvent) => {
      for (const event of events) onEvent(event);
    },
    { threadId: 'bench', messageId: 'answer', skeinData: 'transient' },
  );
  return createUIMessageStreamResponse({ stream });
}

function aiResponse(): Response {
  const stream = createUIMessageStream({
    execute: ({ writer }) => {
      writer.write({ type: 'start-step' });
      writer.write({ type: 'text-start', id: 't' });
      for (let i = 0; i < TOKENS; i++) writer.write({ type: 'text-delta', id: 't', delta: TOKEN });
      writer.write({ type: 'text-end', id: 't' });
      writer.write({ type: 'finish-step' });
    },
  });
  return aiCreateUIMessageStreamResponse({ stream });
}

/** A model that streams `tokens` text parts, calling `first` as it emits the first one. */
function mockModel(tokens: number, first: () => void = () => undefined) {
  return new MockLanguageModelV3({
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't' });
          for (let i = 0; i < tokens; i++) {
            if (i === 0) first();
            controller.enqueue({ type: 'text-delta', id: 't', delta: TOKEN });
          }
          controller.enqueue({ type: 'text-end', id: 't' });
          controller.enqueue({
            type: 'finish',
            finishReason: { unified: 'stop', raw: 'stop' },
            usage: {
              inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
              outputTokens: { total: tokens, text: tokens, reasoning: 0 },
            },
          });
          controller.close();
        },
      }),
    }),
  });
}

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/** POSTs `body`, reads until the first text-delta frame, returns ms since `firstPart`, drains. */
async function firstDelta(url: string, body: string, firstPart: () => number): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let at: number | undefined;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (at === undefined) {
      text += decoder.decode(value, { stream: true });
      if (text.includes('"type":"text-delta"')) at = performance.now();
    }
  }
  if (at === undefined) throw new Error(`no text-delta frame from ${url}`);
  return at - firstPart();
}

function p50(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function latencyRows(): Promise<BenchRow[]> {
  let t0 = 0;
  const mark = () => {
    t0 = performance.now();
  };
  const store = new InMemoryCheckpointStore();
  const engine = new SkeinEngine({ llm: fromLanguageModel(mockModel(20, mark)), store });
  engine.registerWorkflow(chatWorkflow());
  const chat = createChatHandler({ engine, skeinData: 'off' });
  const skein = await listen((req, res) => void chat.node(req, res));
  const peer = await listen((req, res) => {
    req.resume();
    req.once('end', () =>
      streamText({ model: mockModel(20, mark), prompt: 'hi' }).pipeUIMessageStreamToResponse(res),
    );
  });
  const measureOne = async (name: string, url: string, bodyOf: (i: number) => string) => {
    const times: number[] = [];
    for (let i = 0; i < LATENCY_RUNS + 20; i++) {
      const ms = await firstDelta(url, bodyOf(i), () => t0);
      if (i >= 20) times.push(ms);
    }
    return {
      suite: SUITE,
      case: 'first text part -> first text-delta frame read (p50)',
      subject: name,
      ops: 1,
      totalMs: p50(times),
      usPerOp: p50(times) * 1000,
      note: `${LATENCY_RUNS} requests on 127.0.0.1 after 20 warm-up; MockLanguageModelV3, 20 tokens`,
    } satisfies BenchRow;
  };
  try {
    return [
      await measureOne(
        'Skein chat handler (fromLanguageModel + engine + UI stream)',
        `${skein.url}/api/chat`,
        (i) =>
          JSON.stringify({
            id: `bench-${i}`,
            trigger: 'submit-message',
            messages: [{ id: `u${i}`, role: 'user', parts: [{ type: 'text', text: 'hi' }] }],
          }),
      ),
      await measureOne('ai 6 streamText(...).pipeUIMessageStreamToResponse', peer.url, () => '{}'),
    ];
  } finally {
    await close(skein.server);
    await close(peer.server);
  }
}

export const uiStreamSuite: BenchSuite = {
  name: SUITE,
  async run() {
    const events = runEvents();
    const note = `${TOKENS} tokens, one run, body read to its end`;
    const row = (subject: string) => ({
      suite: SUITE,
      case: 'per streamed token',
      subject,
      ops: TOKENS,
      note,
    });
    const rows: BenchRow[] = [];
    rows.push(
      await measure(
        row('Skein toUIMessageStream + createUIMessageStreamResponse'),
        () => events,
        (e) => drain(skeinResponse(e)),
        RUNS,
      ),
    );
    rows.push(
      await measure(
        row('floor: the same events as plain SSE frames'),
        () => events,
        (e) => drain(plainSse(e)),
        RUNS,
      ),
    );
    rows.push(
      await measure(
        row('ai 6 createUIMessageStream + createUIMessageStreamResponse'),
        () => undefined,
        () => drain(aiResponse()),
        RUNS,
      ),
    );
    rows.push(
      await measure(
        row('ai 6 streamText(MockLanguageModelV3).toUIMessageStreamResponse'),
        () => undefined,
        () =>
          drain(streamText({ model: mockModel(TOKENS), prompt: 'hi' }).toUIMessageStreamResponse()),
        RUNS,
      ),
    );
    rows.push(...(await latencyRows()));
    return rows;
  },
  summarize(rows) {
    const us = (subject: string) => rows.find((r) => r.subject.startsWith(subject))!.usPerOp;
    const ratio = us('Skein toUIMessageStream') / us('floor:');
    const latency = rows.filter((r) => r.case.startsWith('first text part'));
    return [
      `UI stream / plain SSE per token: ${ratio.toFixed(2)}x (target <= 1.5x): ${ratio <= 1.5 ? 'met' : 'NOT met'}`,
      `UI stream / ai createUIMessageStream per token: ${(us('Skein toUIMessageStream') / us('ai 6 createUIMessageStream')).toFixed(2)}x`,
      `first text-delta p50: Skein ${latency[0]!.totalMs.toFixed(2)} ms, streamText ${latency[1]!.totalMs.toFixed(2)} ms`,
    ].join('\n');
  },
};
