import { chatWorkflow, InMemoryCheckpointStore, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { fetchEventStream } from './event-stream.js';
import { serveLocal } from './serve-local.js';
import { threadEventStream } from './thread-event-stream.js';

/** `event:` / `data:` frames of a Server-Sent Events body, in order. */
function frames(text: string): { event: string; data: unknown }[] {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const [event, data] = block.split('\n');
      return {
        event: event!.slice('event: '.length),
        data: JSON.parse(data!.slice('data: '.length)),
      };
    });
}

describe('threadEventStream', () => {
  it('streams a turn’s tokens and ending, and the result last', async () => {
    const engine = new SkeinEngine({
      llm: new ScriptedLLMClient([{ content: 'Hello there, friend' }]),
      store: new InMemoryCheckpointStore(),
    });
    engine.registerWorkflow(chatWorkflow());
    const server = await serveLocal(async (req, res) => {
      const out = threadEventStream(res, ['llm:token', 'thread:completed']);
      const { result } = await engine.send(req.path[0]!, 'hi', { onEvent: out.onEvent });
      out.end(result);
    });
    try {
      const res = await fetch(`${server.url}/t1`, { method: 'POST' });
      expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const got = frames(await res.text());
      const tokens = got
        .filter((f) => f.event === 'llm:token')
        .map((f) => (f.data as { delta: string }).delta);
      expect(tokens.join('')).toBe('Hello there, friend');
      expect(got.map((f) => f.event).slice(-2)).toEqual(['thread:completed', 'result']);
      expect(got.at(-1)!.data).toEqual({
        threadId: 't1',
        status: 'COMPLETED',
        output: 'Hello there, friend',
      });
    } finally {
      await server.close();
    }
  });

  it('streams to a fetch body too, and a failure says only what a client may read', async () => {
    const engine = new SkeinEngine({
      llm: new ScriptedLLMClient([{ content: 'Hi' }]),
      store: new InMemoryCheckpointStore(),
    });
    engine.registerWorkflow(chatWorkflow());
    const { body, writer } = fetchEventStream();
    const out = threadEventStream(writer, ['thread:completed']);
    const { result } = await engine.send('t2', 'hi', { onEvent: out.onEvent });
    out.end(result);
    const got = frames(await new Response(body).text());
    expect(got.map((f) => f.event)).toEqual(['thread:completed', 'result']);

    const failing = fetchEventStream();
    threadEventStream(failing.writer).fail(new Error('secret detail'));
    expect(frames(await new Response(failing.body).text())).toEqual([
      { event: 'error', data: { code: 'INTERNAL_ERROR', message: 'internal error' } },
    ]);
  });

  it('writes a posted message’s place in the result (a send to a thread another process runs)', async () => {
    const { body, writer } = fetchEventStream();
    threadEventStream(writer, []).end({
      threadId: 't3',
      status: 'RUNNING',
      steps: 0,
      totalSteps: 2,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      posted: { seq: 4, messageId: 'm1' },
    });
    expect(frames(await new Response(body).text())).toEqual([
      {
        event: 'result',
        data: { threadId: 't3', status: 'RUNNING', posted: { seq: 4, messageId: 'm1' } },
      },
    ]);
  });
});
