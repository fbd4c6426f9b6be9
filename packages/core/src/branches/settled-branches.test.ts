import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { doubleEach } from '../test-support/executor-fixtures.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { Tool } from '../tools/tool.js';
import type { WorkflowDefinition } from '../workflow/types.js';

// With a store and no merge, a fan-out lets go of each completed branch's thread (keeping its
// output, usage and tool failures): these tests pin what must not change because of it.

function counter(): { tool: Tool; calls: () => number } {
  let calls = 0;
  return {
    tool: {
      name: 'count',
      description: 'counts its calls',
      parameters: { type: 'object', properties: {} },
      execute: async () => {
        calls++;
        return 'counted';
      },
    },
    calls: () => calls,
  };
}

const approvals: WorkflowDefinition = {
  id: 'approve',
  version: '1',
  nodes: [
    { id: 'start', type: 'START' },
    {
      id: 'fan',
      type: 'PARALLEL',
      config: {
        branches: [
          { name: 'auto', start: 'work' },
          { name: 'ask', start: 'question' },
        ],
        join: 'join',
      },
    },
    { id: 'work', type: 'TOOL', config: { tool: 'count', args: {} } },
    { id: 'question', type: 'USER_INTERACTION', config: { prompt: 'ok?', variable: 'answer' } },
    { id: 'join', type: 'JOIN', config: { outputVariable: 'answers' } },
    { id: 'end', type: 'END', config: { output: 'vars.answers' } },
  ],
  edges: [
    { from: 'start', to: 'fan' },
    { from: 'work', to: 'join' },
    { from: 'question', to: 'join' },
    { from: 'join', to: 'end' },
  ],
};

describe('completed branches let go of (store, no merge)', () => {
  it('a fan-out resumed in the same engine finds its completed branch in the store, not running it again', async () => {
    const { tool, calls } = counter();
    const engine = new SkeinEngine({ store: new InMemoryCheckpointStore() });
    engine.registerTool(tool);
    engine.registerWorkflow(approvals);
    const { thread, result } = await engine.run('approve', { threadId: 'S' });
    expect(result.status).toBe('PAUSED');
    expect(calls()).toBe(1);
    const { result: done } = await engine.resume(thread, { branch: 'fan/ask', input: 'yes' });
    expect(done.status).toBe('COMPLETED');
    expect(calls()).toBe(1);
    expect(done.output).toHaveLength(2);
    expect((done.output as unknown[])[1]).toBe('yes');
  });

  it("adds every branch's token usage to the parent", async () => {
    const llm = new ScriptedLLMClient(() => ({
      content: 'ok',
      usage: { promptTokens: 10, completionTokens: 5 },
    }));
    const engine = new SkeinEngine({ llm, store: new InMemoryCheckpointStore() });
    engine.registerWorkflow({
      id: 'ask-all',
      version: '1',
      nodes: [
        { id: 'start', type: 'START' },
        { id: 'fan', type: 'MAP', config: { items: 'vars.items', start: 'ask', join: 'join' } },
        { id: 'ask', type: 'LLM', config: { prompt: 'item {{ vars.item }}' } },
        { id: 'join', type: 'JOIN', config: { outputVariable: 'answers' } },
        { id: 'end', type: 'END', config: { output: 'vars.answers' } },
      ],
      edges: [
        { from: 'start', to: 'fan' },
        { from: 'ask', to: 'join' },
        { from: 'join', to: 'end' },
      ],
    });
    const { result } = await engine.run('ask-all', { variables: { items: [1, 2, 3] } });
    expect(result.status).toBe('COMPLETED');
    expect(result.usage).toEqual({ promptTokens: 30, completionTokens: 15, totalTokens: 45 });
  });

  it('gathers many outputs in item order, each branch checkpointed', async () => {
    const store = new InMemoryCheckpointStore();
    const engine = new SkeinEngine({ store });
    engine.registerWorkflow(doubleEach(7));
    const items = Array.from({ length: 50 }, (_, i) => i + 1);
    const { result, thread } = await engine.run('double', { threadId: 'm', variables: { items } });
    expect(result.output).toEqual(items.map((x) => x * 2));
    expect(Object.isFrozen(thread.state.variables.results)).toBe(true);
    expect((await store.listThreads()).length).toBe(51);
  });
});
