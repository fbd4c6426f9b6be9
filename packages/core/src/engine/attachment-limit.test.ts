import { InvalidArgumentError, toolOutput } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import { chatWorkflow } from '../workflow/chat-workflow.js';
import { SkeinEngine } from './skein-engine.js';

const file = (size: number) => ({
  content: [{ type: 'file' as const, mediaType: 'text/plain', data: new Uint8Array(size) }],
});

function engineWith(maxAttachmentBytes: number, toolBytes = 0) {
  const store = new InMemoryCheckpointStore();
  const llm = new ScriptedLLMClient((request) =>
    request.messages.at(-1)!.content === 'dump it' && toolBytes > 0
      ? { toolCalls: [{ name: 'dump', arguments: {} }] }
      : { content: 'ok' },
  );
  const engine = new SkeinEngine({ llm, store, maxAttachmentBytes });
  engine.registerTool({
    name: 'dump',
    description: 'Returns a file',
    parameters: { type: 'object', properties: {} },
    execute: () =>
      toolOutput({
        content: [
          { type: 'text', text: 'the dump' },
          { type: 'file', mediaType: 'text/plain', data: new Uint8Array(toolBytes) },
        ],
      }),
  });
  engine.registerWorkflow(chatWorkflow({ tools: ['dump'] }));
  return { engine, store };
}

describe('SkeinEngine maxAttachmentBytes', () => {
  it('refuses a sent attachment over the limit, naming the part, before any thread is touched', async () => {
    const { engine, store } = engineWith(16);
    await engine.send('t', file(16));
    const before = await store.list('t');
    const error = await engine.send('t', file(17)).catch((e: unknown) => e);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ argument: 'message.content[0]' });
    expect((error as Error).message).toMatch(/17 bytes, over the limit of 16/);
    expect(await store.list('t')).toEqual(before);
  });

  it('holds a tool result to the same limit: the thread fails with the part named, and is not wedged', async () => {
    const { engine } = engineWith(16, 17);
    const { result } = await engine.send('t', 'dump it');
    expect(result.status).toBe('FAILED');
    expect(result.error?.message).toMatch(/over the limit of 16/);
    // The thread takes the next message as a new turn.
    expect((await engine.send('t', 'hello')).result).toMatchObject({
      status: 'COMPLETED',
      output: 'ok',
    });
  });

  it('refuses a limit that is no whole number of bytes when the engine is made', () => {
    expect(() => new SkeinEngine({ maxAttachmentBytes: -1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });
});
