import { readChatCompletionStream, SseDecoder, ToolCallAccumulator } from '@skein/openai';
import OpenAI from 'openai';
import { ChatCompletionStream } from 'openai/lib/ChatCompletionStream';
import { type BenchRow, measure } from './harness.js';
import type { BenchSuite } from './suite.js';

// Issue 4's benchmark. One stream of 4 parallel tool calls split into 20,000 chunks, encoded
// once as SSE bytes and cut into 16 KiB reads (lines straddle reads, as on a socket). Every
// contender starts from those same bytes:
// - Skein: SseDecoder + ToolCallAccumulator (`readChatCompletionStream`), what the client runs;
// - the openai package: `client.chat.completions.stream()` (ChatCompletionStream) with a custom
//   `fetch` answering the same SSE bytes, so it runs its own SSE decoder and accumulator (no
//   network); a second row feeds `ChatCompletionStream.fromReadableStream` the SDK's own
//   newline-delimited JSON form of the same chunks;
// - a floor that only decodes SSE, parses JSON and joins argument fragments.
// Then the accumulator alone on pre-parsed chunk objects vs a bare array-join loop.
// Every contender builds its state inside the timed function, as the floors do.
//
// One finished accumulator (and SSE decoder) stays alive for the whole suite, as in a running app that always has
// some response in flight or just done. Without it, the harness's full GC before each run finds
// no ToolCallAccumulator (or ToolCallState, TextParts…) alive, frees their hidden classes (V8
// keeps field transitions weakly), and throws away every optimised function specialised on them:
// each run would then measure re-optimisation (about 0.6-0.9 µs/chunk instead of 0.1-0.2). The
// floors use only arrays, whose hidden classes never die.

const SUITE = 'openai-stream';
const CHUNKS = 20_000;
const CALLS = 4;
const READ_SIZE = 16 * 1024;
const RUNS = { warmup: 3, runs: 9 };
/** Issue 11 #13: one `data:` line of 4 MiB arriving in 64-byte reads (linear, or 7 s when not). */
const LONG_LINE_CHARS = 4 * 1024 * 1024;
const LONG_LINE_READ_SIZE = 64;
const LONG_LINE_RUNS = { warmup: 1, runs: 3 };

interface Fragment {
  index: number;
  id?: string;
  type?: string;
  function: { name?: string; arguments: string };
}

function envelope(choice: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1727346178,
    model: 'gpt-4o-2024-08-06',
    system_fingerprint: 'fp_bench',
    choices: [{ index: 0, logprobs: null, finish_reason: null, ...choice }],
    ...extra,
  };
}

/** role chunk, per call a header and argument fragments of ~4 characters, finish, usage. */
function makeChunks(): unknown[] {
  const chunks: unknown[] = [envelope({ delta: { role: 'assistant', content: null } })];
  const perCall = (CHUNKS - 3) / CALLS; // 4999.25 -> the last call gets the remainder
  for (let call = 0; call < CALLS; call++) {
    const fragments =
      call === CALLS - 1 ? CHUNKS - 3 - 3 * Math.floor(perCall) : Math.floor(perCall);
    const words = Array.from({ length: fragments }, (_, i) => `w${i % 97}`);
    const args = JSON.stringify({ city: `City ${call}`, notes: words.join(' ') });
    const size = Math.ceil(args.length / (fragments - 1));
    const tool: Fragment[] = [
      {
        index: call,
        id: `call_bench_${call}`,
        type: 'function',
        function: { name: `tool_${call}`, arguments: '' },
      },
    ];
    for (let i = 0; i < fragments - 1; i++) {
      tool.push({ index: call, function: { arguments: args.slice(i * size, (i + 1) * size) } });
    }
    for (const fragment of tool) chunks.push(envelope({ delta: { tool_calls: [fragment] } }));
  }
  chunks.push(envelope({ delta: {}, finish_reason: 'tool_calls' }));
  chunks.push({
    ...envelope({}),
    choices: [],
    usage: { prompt_tokens: 100, completion_tokens: CHUNKS, total_tokens: CHUNKS + 100 },
  });
  if (chunks.length !== CHUNKS) throw new Error(`built ${chunks.length} chunks, not ${CHUNKS}`);
  return chunks;
}

function cut(bytes: Uint8Array, size = READ_SIZE): Uint8Array[] {
  const reads: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += size) reads.push(bytes.subarray(i, i + size));
  return reads;
}

/** One chunk whose text delta makes its `data:` line LONG_LINE_CHARS long, then `[DONE]`. */
function longLineReads(): { reads: Uint8Array[]; text: string } {
  const head = 'data: {"choices":[{"index":0,"delta":{"content":"';
  const tail = '"},"finish_reason":"stop"}]}';
  const text = 'x'.repeat(LONG_LINE_CHARS - head.length - tail.length);
  const sse = new TextEncoder().encode(`${head}${text}${tail}\n\ndata: [DONE]\n\n`);
  return { reads: cut(sse, LONG_LINE_READ_SIZE), text };
}

async function* source(reads: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const read of reads) yield read;
}

function readable(reads: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const read = reads[i++];
      if (read === undefined) controller.close();
      else controller.enqueue(read);
    },
  });
}

/** The whole of the floors' accumulation: one array of fragments per index. */
function joinFragment(parts: string[][], f: Fragment): void {
  const list = parts[f.index];
  if (list === undefined) parts[f.index] = [f.function.arguments];
  else list.push(f.function.arguments);
}

/** The floor: SSE framing by `\n\n`, `JSON.parse`, argument fragments pushed and joined. */
async function sseFloor(reads: readonly Uint8Array[]): Promise<string[]> {
  const decoder = new TextDecoder();
  const parts: string[][] = [];
  let rest = '';
  for await (const read of source(reads)) {
    const text = rest + decoder.decode(read, { stream: true });
    let start = 0;
    let end = text.indexOf('\n\n', start);
    while (end !== -1) {
      const data = text.slice(start + 6, end);
      if (data !== '[DONE]') {
        const chunk = JSON.parse(data) as {
          choices: { delta?: { tool_calls?: Fragment[] } }[];
        };
        const fragments = chunk.choices[0]?.delta?.tool_calls;
        if (fragments !== undefined) {
          for (const f of fragments) joinFragment(parts, f);
        }
      }
      start = end + 2;
      end = text.indexOf('\n\n', start);
    }
    rest = text.slice(start);
  }
  return parts.map((p) => p.join(''));
}

/** The object floor: the same join loop on chunks already parsed. */
function objectFloor(chunks: readonly unknown[]): string[] {
  const parts: string[][] = [];
  for (const chunk of chunks as { choices: { delta?: { tool_calls?: Fragment[] } }[] }[]) {
    const fragments = chunk.choices[0]?.delta?.tool_calls;
    if (fragments !== undefined) {
      for (const f of fragments) joinFragment(parts, f);
    }
  }
  return parts.map((p) => p.join(''));
}

function check(label: string, got: readonly string[], want: readonly string[]): void {
  if (got.length !== want.length || got.some((g, i) => g !== want[i])) {
    throw new Error(`${label} assembled different arguments`);
  }
}

export const openaiStreamSuite: BenchSuite = {
  name: SUITE,
  async run() {
    const chunks = makeChunks();
    const sse = new TextEncoder().encode(
      `${chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`,
    );
    const ndjson = new TextEncoder().encode(`${chunks.map((c) => JSON.stringify(c)).join('\n')}\n`);
    const sseReads = cut(sse);
    const ndjsonReads = cut(ndjson);
    const expected = objectFloor(chunks);
    const parsed = chunks.map((c) => JSON.parse(JSON.stringify(c)) as unknown);
    const note = `${CALLS} calls, ${(sse.length / 1e6).toFixed(1)} MB SSE in ${sseReads.length} reads`;
    const row = (caseName: string, subject: string) => ({
      suite: SUITE,
      case: caseName,
      subject,
      ops: CHUNKS,
      note,
    });
    const rows: BenchRow[] = [];
    const resident = new ToolCallAccumulator();
    const residentDecoder = new SseDecoder((data) => {
      if (data !== '[DONE]') resident.push(JSON.parse(data));
    });
    for (const read of sseReads) residentDecoder.push(read);
    residentDecoder.end();
    check(
      'resident',
      resident.finish().toolCalls.map((c) => c.arguments),
      expected,
    );

    rows.push(
      await measure(
        row('stream from SSE bytes', 'Skein SseDecoder + ToolCallAccumulator'),
        () => sseReads,
        async (reads) => {
          const accumulator = new ToolCallAccumulator();
          await readChatCompletionStream(source(reads), accumulator);
          check(
            'Skein',
            accumulator.finish().toolCalls.map((c) => c.arguments),
            expected,
          );
        },
        RUNS,
      ),
    );
    rows.push(
      await measure(
        row('stream from SSE bytes', 'Skein, with an onEvent listener'),
        () => sseReads,
        async (reads) => {
          let deltas = 0;
          const accumulator = new ToolCallAccumulator({ onEvent: () => void deltas++ });
          await readChatCompletionStream(source(reads), accumulator);
          check(
            'Skein+events',
            accumulator.finish().toolCalls.map((c) => c.arguments),
            expected,
          );
        },
        RUNS,
      ),
    );
    rows.push(
      await measure(
        row('stream from SSE bytes', 'floor: SSE split + JSON.parse + join'),
        () => sseReads,
        async (reads) => check('SSE floor', await sseFloor(reads), expected),
        RUNS,
      ),
    );
    rows.push(
      await measure(
        row('stream from SSE bytes', 'openai 6.49 chat.completions.stream (ChatCompletionStream)'),
        () =>
          new OpenAI({
            apiKey: 'bench',
            baseURL: 'http://127.0.0.1:9/v1',
            maxRetries: 0,
            fetch: async () =>
              new Response(readable(sseReads), {
                headers: { 'content-type': 'text/event-stream' },
              }),
          }),
        async (client) => {
          const stream = client.chat.completions.stream({ model: 'gpt-4o', messages: [] });
          const completion = await stream.finalChatCompletion();
          const calls = completion.choices[0]?.message.tool_calls ?? [];
          check(
            'openai',
            calls.map((c) => (c.type === 'function' ? c.function.arguments : '')),
            expected,
          );
        },
        RUNS,
      ),
    );
    rows.push(
      await measure(
        row('stream from NDJSON bytes', 'openai 6.49 ChatCompletionStream.fromReadableStream'),
        () => readable(ndjsonReads),
        async (body) => {
          const completion =
            await ChatCompletionStream.fromReadableStream(body).finalChatCompletion();
          const calls = completion.choices[0]?.message.tool_calls ?? [];
          check(
            'openai ndjson',
            calls.map((c) => (c.type === 'function' ? c.function.arguments : '')),
            expected,
          );
        },
        RUNS,
      ),
    );
    rows.push(
      await measure(
        row('pre-parsed chunk objects', 'Skein ToolCallAccumulator.push + finish'),
        () => parsed,
        (objects) => {
          const accumulator = new ToolCallAccumulator();
          for (const chunk of objects) accumulator.push(chunk);
          check(
            'accumulator',
            accumulator.finish().toolCalls.map((c) => c.arguments),
            expected,
          );
        },
        RUNS,
      ),
    );
    rows.push(
      await measure(
        row('pre-parsed chunk objects', 'floor: bare array-join loop'),
        () => parsed,
        (objects) => check('object floor', objectFloor(objects), expected),
        RUNS,
      ),
    );
    const long = longLineReads();
    rows.push(
      await measure(
        {
          suite: SUITE,
          case: `one ${LONG_LINE_CHARS / 1024 / 1024} MiB data line in ${LONG_LINE_READ_SIZE}-byte reads`,
          subject: 'Skein SseDecoder + ToolCallAccumulator (long line)',
          ops: long.reads.length,
          note: `${long.reads.length} reads`,
        },
        () => long.reads,
        async (reads) => {
          const accumulator = new ToolCallAccumulator();
          await readChatCompletionStream(source(reads), accumulator);
          if (accumulator.finish().text !== long.text) throw new Error('long line: wrong text');
        },
        LONG_LINE_RUNS,
      ),
    );
    // Used after the runs, so the resident objects stay alive until here.
    residentDecoder.end();
    check(
      'resident',
      resident.finish().toolCalls.map((c) => c.arguments),
      expected,
    );
    return rows;
  },
  summarize(rows) {
    const us = (subject: string) => rows.find((r) => r.subject === subject)?.usPerOp;
    const skein = us('Skein SseDecoder + ToolCallAccumulator');
    const floor = us('floor: SSE split + JSON.parse + join');
    const sdk = us('openai 6.49 chat.completions.stream (ChatCompletionStream)');
    const accumulator = us('Skein ToolCallAccumulator.push + finish');
    const objects = us('floor: bare array-join loop');
    const lines: string[] = [];
    const long = rows.find(
      (r) => r.subject === 'Skein SseDecoder + ToolCallAccumulator (long line)',
    );
    if (long !== undefined) {
      lines.push(`${long.case}: ${long.totalMs.toFixed(0)} ms for the whole line.`);
    }
    if (skein !== undefined && floor !== undefined) {
      const ratio = skein / floor;
      lines.push(
        `Streaming path: ${skein.toFixed(2)} µs/chunk vs SSE floor ${floor.toFixed(2)} µs/chunk = ${ratio.toFixed(2)}x (target ≤ 1.5x: ${ratio <= 1.5 ? 'met' : 'NOT met'}).`,
      );
    }
    if (skein !== undefined && sdk !== undefined) {
      const ratio = sdk / skein;
      lines.push(
        `openai ChatCompletionStream: ${sdk.toFixed(2)} µs/chunk, ${ratio.toFixed(1)}x Skein's time (target ≥ 2x: ${ratio >= 2 ? 'met' : 'NOT met'}).`,
      );
    }
    if (accumulator !== undefined && objects !== undefined) {
      const ratio = accumulator / objects;
      lines.push(
        `Accumulator alone: ${accumulator.toFixed(3)} µs/chunk vs object floor ${objects.toFixed(3)} µs/chunk = ${ratio.toFixed(2)}x (target ≤ 3x: ${ratio <= 3 ? 'met' : 'NOT met'}).`,
      );
    }
    return lines.join('\n');
  },
};
