import { chatWorkflow, InMemoryCheckpointStore, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { describe, expect, it } from 'vitest';
import { instrumentSkein } from './index.js';
import { startTracing } from './test-support/tracing.js';

describe('a summary call', () => {
  it('is a chat span of its own, marked with its purpose, with its model and usage', async () => {
    const tracing = startTracing();
    const engine = new SkeinEngine({
      llm: new ScriptedLLMClient(
        [
          (request) =>
            request.purpose === 'summary'
              ? { content: 'earlier greetings', usage: { promptTokens: 40, completionTokens: 3 } }
              : { content: 'hi' },
        ],
        { whenExhausted: 'repeat-last' },
      ),
      store: new InMemoryCheckpointStore(),
    });
    engine.registerWorkflow(chatWorkflow({ compact: { threshold: 20, model: 'small' } }));
    instrumentSkein(engine, { tracer: tracing.tracer });
    await engine.send('t', 'hello there, a first message');
    await engine.send('t', 'hello again, a second message');
    const chats = tracing.spans().filter((s) => s.name.startsWith('chat'));
    const summaries = chats.filter((s) => s.attributes['skein.llm.purpose'] === 'summary');
    expect(summaries).toHaveLength(1);
    expect(summaries[0]!.name).toBe('chat small');
    expect(summaries[0]!.attributes).toMatchObject({
      'gen_ai.request.model': 'small',
      'gen_ai.usage.input_tokens': 40,
      'gen_ai.usage.output_tokens': 3,
    });
    expect(chats.filter((s) => s.attributes['skein.llm.purpose'] === undefined)).toHaveLength(2);
  });
});
