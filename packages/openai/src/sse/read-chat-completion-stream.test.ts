import { ProviderError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { ToolCallAccumulator } from '../accumulator/tool-call-accumulator.js';
import { loadStreamFixtures, toSseText } from '../test-support/fixtures.js';
import { readChatCompletionStream } from './read-chat-completion-stream.js';

async function* bytes(text: string, size = 7): AsyncGenerator<Uint8Array> {
  const all = new TextEncoder().encode(text);
  for (let i = 0; i < all.length; i += size) yield all.subarray(i, i + size);
}

describe('readChatCompletionStream', () => {
  it.each(loadStreamFixtures().map((f) => [f.file, f] as const))(
    '%s read from SSE bytes (CRLF, 7-byte reads) assembles to expected_result',
    async (_, fixture) => {
      const accumulator = new ToolCallAccumulator();
      const outcome = await readChatCompletionStream(
        bytes(toSseText(fixture.chunks, '\r\n')),
        accumulator,
      );
      expect(outcome).toEqual({ done: true, events: fixture.chunks.length + 1 });
      const result = accumulator.finish();
      expect(result.toolCalls.map((c) => [c.id, c.name, c.arguments])).toEqual(
        fixture.expected.tool_calls.map((c) => [c.id, c.function.name, c.function.arguments]),
      );
      expect(result.finishReason).toBe(fixture.expected.finish_reason);
    },
  );

  it('ignores everything after [DONE] and reports a stream without it', async () => {
    const accumulator = new ToolCallAccumulator();
    const text =
      'data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: [DONE]\n\ndata: {"choices":[{"delta":{"content":"b"}}]}\n\n';
    expect((await readChatCompletionStream(bytes(text), accumulator)).done).toBe(true);
    expect(accumulator.finish().text).toBe('a');
    const second = new ToolCallAccumulator();
    expect((await readChatCompletionStream(bytes('data: {"choices":[]}\n\n'), second)).done).toBe(
      false,
    );
  });

  it('raises an `event: error` as PROVIDER_STREAM_ERROR with its code', async () => {
    const text =
      'data: {"choices":[{"delta":{"content":"a"}}]}\n\nevent: error\ndata: {"error":{"message":"overloaded","code":"server_busy"}}\n\n';
    const error = await readChatCompletionStream(bytes(text), new ToolCallAccumulator()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      code: 'PROVIDER_STREAM_ERROR',
      providerCode: 'server_busy',
      providerMessage: 'overloaded',
    });
  });

  it('raises an in-band error chunk', async () => {
    const text = 'data: {"error":{"message":"bad","code":"x"}}\n\n';
    const reading = readChatCompletionStream(bytes(text), new ToolCallAccumulator());
    await expect(reading).rejects.toThrow(ProviderError);
    await expect(reading).rejects.toMatchObject({ code: 'PROVIDER_STREAM_ERROR' });
  });

  it('names the SSE event whose data is not JSON', async () => {
    const text = 'data: {"choices":[]}\n\ndata: {oops\n\n';
    const error = await readChatCompletionStream(bytes(text), new ToolCallAccumulator()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: 'INVALID_CHUNK' });
    expect((error as Error).message).toContain('SSE event 2');
  });
});

describe('readChatCompletionStream error events', () => {
  it('takes the plain text of an `event: error` as the provider message', async () => {
    const error = await readChatCompletionStream(
      bytes('event: error\ndata: upstream timed out\n\n'),
      new ToolCallAccumulator(),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      code: 'PROVIDER_STREAM_ERROR',
      providerMessage: 'upstream timed out',
    });
    expect((error as { providerCode?: string }).providerCode).toBeUndefined();
  });
});
