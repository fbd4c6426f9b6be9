import { ConversationManager } from '@skein/conversation';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { add, doubleEach } from '../test-support/executor-fixtures.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { Tool } from '../tools/tool.js';
import type { WorkflowDefinition } from '../workflow/types.js';

/**
 * START → intro (a user message) → MAP over `vars.items`, each branch `body` → JOIN → END. The
 * workflow describes `add`, so every conversation starts with a tool description, and the
 * branches are forked from a view with a message in it.
 */
function forkedMap(
  body: 'variable' | 'llm',
  conversation: 'forked' | 'isolated' = 'forked',
): WorkflowDefinition {
  return {
    id: 'forked',
    version: '1',
    initialTools: ['add'],
    nodes: [
      { id: 'start', type: 'START' },
      { id: 'intro', type: 'VARIABLE', config: { message: { role: 'user', content: 'Hello' } } },
      {
        id: 'fan',
        type: 'MAP',
        config: { items: 'vars.items', start: 'work', join: 'join', conversation },
      },
      body === 'variable'
        ? { id: 'work', type: 'VARIABLE', config: { assign: { doubled: 'vars.item * 2' } } }
        : { id: 'work', type: 'LLM', config: { prompt: 'item {{ vars.item }}' } },
      { id: 'join', type: 'JOIN' },
      { id: 'end', type: 'END' },
    ],
    edges: [
      { from: 'start', to: 'intro' },
      { from: 'intro', to: 'fan' },
      { from: 'work', to: 'join' },
      { from: 'join', to: 'end' },
    ],
  };
}

/**
 * Runs `workflow` as thread `t` and gives every stored thread's conversation and parent link.
 * `eager`: a `batch:started` listener, for which every conversation is built as its thread is.
 */
async function storedRun(workflow: WorkflowDefinition, eager: boolean, tool: Tool = add) {
  const store = new InMemoryCheckpointStore();
  const llm = new ScriptedLLMClient((request) => ({
    content: `seen ${request.messages.length}`,
    usage: { promptTokens: 3, completionTokens: 2, totalTokens: 5 },
  }));
  const engine = new SkeinEngine({ store, llm });
  engine.registerTool(tool);
  engine.registerWorkflow(workflow);
  if (eager) engine.events.on('batch:started', () => {});
  const { result } = await engine.run(workflow.id, {
    threadId: 't',
    variables: { items: [1, 2, 3] },
  });
  expect(result.status).toBe('COMPLETED');
  const threads = await Promise.all(
    (await store.listThreads()).map(async (info) => {
      const stored = (await store.load(info.threadId))!;
      return [info.threadId, stored.conversation, stored.state.parent] as const;
    }),
  );
  return { threads: threads.sort(([a], [b]) => a.localeCompare(b)), result };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a child thread’s conversation', () => {
  it('is not built for a branch that never uses it: one seed serves every branch of a fan-out', async () => {
    const started = vi.spyOn(ConversationManager.prototype, 'startNewBatchWithInitialTools');
    const restored = vi.spyOn(ConversationManager, 'restore');
    const engine = new SkeinEngine({ store: new InMemoryCheckpointStore() });
    engine.registerWorkflow(doubleEach());
    const { result } = await engine.run('double', { variables: { items: [1, 2, 3, 4, 5] } });
    expect(result.output).toEqual([2, 4, 6, 8, 10]);
    // The root's conversation and the seed's; no branch built its own.
    expect(started).toHaveBeenCalledTimes(2);
    expect(restored).not.toHaveBeenCalled();
    // Another run: its root's conversation and the seed of its own view.
    await engine.run('double', { variables: { items: [1, 2, 3] } });
    expect(started).toHaveBeenCalledTimes(4);
  });

  it('is stored as an eagerly built one is, for branches that never use it', async () => {
    const lazy = await storedRun(forkedMap('variable'), false);
    const eager = await storedRun(forkedMap('variable'), true);
    expect(lazy.threads).toHaveLength(4);
    expect(lazy.threads).toEqual(eager.threads);
    // Each branch holds the parent's message and one tool description, and begins after them.
    const [, conversation, parent] = lazy.threads[1]!;
    expect(conversation.messages.map((m) => m.content)).toContain('Hello');
    expect(parent?.forkedAt).toBe(conversation.messages.length);
  });

  it('is built when first used, and then holds and stores what an eager one does', async () => {
    const lazy = await storedRun(forkedMap('llm'), false);
    const eager = await storedRun(forkedMap('llm'), true);
    expect(lazy.threads).toEqual(eager.threads);
    // Each branch's model call saw the parent's message; usage reached the parent.
    expect(lazy.threads[1]![1].messages.at(-1)?.content).toMatch(/^seen \d+$/);
    expect(lazy.result.usage.totalTokens).toBe(15);
    expect(lazy.result.usage).toEqual(eager.result.usage);
  });

  it('describes the tools registered when the branch starts, after one was replaced', async () => {
    const store = new InMemoryCheckpointStore();
    const engine = new SkeinEngine({ store });
    engine.registerTool(add);
    // Isolated branches of every run of a workflow start alike: they share one seed until then.
    engine.registerWorkflow(forkedMap('variable', 'isolated'));
    await engine.run('forked', { threadId: 'a', variables: { items: [1] } });
    engine.registerTool({ ...add, description: 'Adds, again' }, { replace: true });
    await engine.run('forked', { threadId: 'b', variables: { items: [1] } });
    const described = async (root: string) => {
      const branch = (await store.listThreads()).find(
        (t) => t.threadId !== root && t.threadId.startsWith(root),
      )!;
      const { conversation } = (await store.load(branch.threadId))!;
      return conversation.messages.find((m) => m.metadata?.kind === 'tool-description')?.content;
    };
    expect(await described('a')).toContain('Adds two numbers');
    expect(await described('b')).toContain('Adds, again');
  });
});
