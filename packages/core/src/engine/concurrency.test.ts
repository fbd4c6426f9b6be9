import { contentText } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { Tool } from '../tools/tool.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import { SkeinEngine } from './skein-engine.js';

describe('many threads at once', () => {
  it('runs 100 threads of one workflow concurrently with no cross-talk', async () => {
    const echo: Tool<{ text: string }> = {
      name: 'echo',
      description: 'echoes after a random delay',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      execute: async ({ text }, { variables }) => {
        await new Promise((r) => setTimeout(r, Math.random() * 10));
        return `${text}/${String(variables.who)}`;
      },
    };
    // The model echoes the thread's own input back through the tool, then answers with it.
    const llm = new ScriptedLLMClient(async (request) => {
      await new Promise((r) => setTimeout(r, Math.random() * 5));
      const last = request.messages.at(-1)!;
      if (last.role === 'user')
        return { toolCalls: [{ name: 'echo', arguments: { text: last.content } }] };
      return { content: `answer:${last.content}` };
    });
    const store = new InMemoryCheckpointStore();
    const engine = new SkeinEngine({ llm, store });
    engine.registerTool(echo);
    engine.registerWorkflow(
      new WorkflowBuilder('echo', '1')
        .initialTools(['echo'])
        .start()
        .variable('mark', { assign: { seen: 'vars.who + "!"' } })
        .llm('ask')
        .end('end', { output: 'nodes.ask + "|" + vars.seen' })
        .chain('start', 'mark', 'ask', 'end')
        .build(),
    );
    const runs = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        engine.run('echo', { input: `q${i}`, variables: { who: `u${i}` }, threadId: `t${i}` }),
      ),
    );
    runs.forEach(({ result, thread }, i) => {
      expect(result.status).toBe('COMPLETED');
      expect(result.output).toBe(`answer:q${i}/u${i}|u${i}!`);
      const contents = thread.conversation.getAllMessages().map((m) => contentText(m.content));
      expect(
        contents
          .filter((c) => /q\d+/.test(c))
          .every((c) => c.includes(`q${i}`) && !c.match(new RegExp(`q(?!${i}\\b)\\d+`))),
      ).toBe(true);
    });
    expect(await store.listThreads()).toHaveLength(100);
  });
});
