import { describe, expect, it, vi } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { askEach, collect, doubleEach } from '../test-support/executor-fixtures.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { Tool } from '../tools/tool.js';
import type { WorkflowDefinition } from '../workflow/types.js';

const slowTool: Tool<{ ms: number; label: string }> = {
  name: 'slow',
  description: 'waits, then answers its label',
  parameters: {
    type: 'object',
    properties: { ms: { type: 'number' }, label: { type: 'string' } },
    required: ['ms', 'label'],
  },
  execute: async ({ ms, label }, { signal }) => {
    await new Promise((resolve, reject) => {
      const t = setTimeout(resolve, ms);
      signal.addEventListener('abort', () => {
        clearTimeout(t);
        reject(signal.reason);
      });
    });
    if (label === 'boom') throw new Error('the slow tool broke');
    return label;
  },
};

/** Waits turn by turn, with no clock involved, until `check` holds. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

/** PARALLEL over named branches, each a TOOL node calling `slow` with its own delay and label. */
function parallel(
  branches: { name: string; ms: number; label: string }[],
  join: Record<string, unknown> = {},
): WorkflowDefinition {
  return {
    id: 'par',
    version: '1',
    nodes: [
      { id: 'start', type: 'START' },
      {
        id: 'fan',
        type: 'PARALLEL',
        config: {
          branches: branches.map((b) => ({ name: b.name, start: `t_${b.name}` })),
          join: 'join',
        },
      },
      ...branches.map((b) => ({
        id: `t_${b.name}`,
        type: 'TOOL' as const,
        config: { tool: 'slow', args: { ms: b.ms, label: b.label } },
      })),
      { id: 'join', type: 'JOIN', config: { outputVariable: 'results', ...join } },
      { id: 'end', type: 'END', config: { output: 'vars.results' } },
    ],
    edges: [
      { from: 'start', to: 'fan' },
      ...branches.map((b) => ({ from: `t_${b.name}`, to: 'join' })),
      { from: 'join', to: 'end' },
    ],
  };
}

describe('MAP', () => {
  it('runs one branch per item and gathers outputs in item order', async () => {
    const engine = new SkeinEngine();
    engine.registerWorkflow(doubleEach());
    const { result } = await engine.run('double', { variables: { items: [1, 2, 3, 4, 5] } });
    expect(result.status).toBe('COMPLETED');
    expect(result.output).toEqual([2, 4, 6, 8, 10]);
  });

  it('works for 0 items', async () => {
    const engine = new SkeinEngine();
    engine.registerWorkflow(doubleEach());
    const { result } = await engine.run('double', { variables: { items: [] } });
    expect(result.output).toEqual([]);
  });

  it('fails with MAP_ITEMS_INVALID when items is not an array', async () => {
    const engine = new SkeinEngine();
    engine.registerWorkflow(doubleEach());
    const { result } = await engine.run('double', { variables: { items: 'abc' } });
    expect(result.status).toBe('FAILED');
    expect(result.error?.code).toBe('MAP_ITEMS_INVALID');
    expect(result.error?.message).toContain('vars.items');
  });

  it('checkpoints each branch as its own thread, linked to its parent', async () => {
    const store = new InMemoryCheckpointStore();
    const engine = new SkeinEngine({ store });
    engine.registerWorkflow(doubleEach());
    const { thread } = await engine.run('double', { threadId: 'p', variables: { items: [1, 2] } });
    const ids = (await store.listThreads()).map((t) => t.threadId).sort();
    expect(ids).toEqual(['p', 'p/fan@1[0]', 'p/fan@1[1]']);
    const child = await engine.loadThread('p/fan@1[1]');
    expect(child.state.parent).toMatchObject({
      threadId: 'p',
      nodeId: 'fan',
      rootThreadId: 'p',
      branchPath: 'fan[1]',
      depth: 1,
      stopAt: 'join',
    });
    expect(child.state.output).toBe(4);
    expect(thread.state.variables.results).toEqual([2, 4]);
  });

  it('keeps at most maxConcurrency branches running', async () => {
    let running = 0;
    let peak = 0;
    const probe: Tool = {
      name: 'probe',
      description: 'counts concurrent calls',
      parameters: { type: 'object', properties: {} },
      execute: async () => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        return 'ok';
      },
    };
    const engine = new SkeinEngine();
    engine.registerTool(probe);
    engine.registerWorkflow({
      id: 'm',
      version: '1',
      nodes: [
        { id: 'start', type: 'START' },
        {
          id: 'fan',
          type: 'MAP',
          config: { items: 'vars.items', start: 'p', join: 'join', maxConcurrency: 3 },
        },
        { id: 'p', type: 'TOOL', config: { tool: 'probe' } },
        { id: 'join', type: 'JOIN' },
        { id: 'end', type: 'END' },
      ],
      edges: [
        { from: 'start', to: 'fan' },
        { from: 'p', to: 'join' },
        { from: 'join', to: 'end' },
      ],
    });
    const { result } = await engine.run('m', {
      variables: { items: Array.from({ length: 12 }, (_, i) => i) },
    });
    expect(result.status).toBe('COMPLETED');
    expect(peak).toBe(3);
    expect(result.output).toHaveLength(12);
  });
  it('starts each branch model call as its branch reaches it, not after every branch has started', async () => {
    // If the model's wait started only after the last branch was built, 100 branches of a 20 ms
    // call would take 20 ms plus every branch's start-up, and then all finish at once.
    const order: string[] = [];
    const llm = new ScriptedLLMClient(() => ({ content: 'ok', delayMs: 7 }));
    const engine = new SkeinEngine({ llm });
    engine.events.on('thread:started', ({ threadId }) => {
      if (threadId.includes('fan')) order.push(`start ${threadId.slice(-3)}`);
    });
    const realSetTimeout = globalThis.setTimeout;
    const timers = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((
      fn: () => void,
      ms?: number,
    ) => {
      if (ms === 7) order.push('model wait');
      return realSetTimeout(fn, ms);
    }) as typeof setTimeout);
    engine.registerWorkflow(askEach());
    try {
      const { result } = await engine.run('ask-each', { variables: { items: [1, 2, 3] } });
      expect(result.status).toBe('COMPLETED');
    } finally {
      timers.mockRestore();
    }
    expect(order).toEqual([
      'start [0]',
      'model wait',
      'start [1]',
      'model wait',
      'start [2]',
      'model wait',
    ]);
  });
});

describe('PARALLEL and JOIN', () => {
  it('gathers outputs in branch order whatever order they finished in', async () => {
    // Each branch's tool answers when the test says, b, then c, then a: with timers of 1, 150
    // and 400 ms instead, a busy machine could start c late enough to finish after a.
    const answer = new Map<string, () => void>();
    const gated: Tool<{ ms: number; label: string }> = {
      ...slowTool,
      execute: ({ label }) =>
        new Promise<string>((resolve) => answer.set(label, () => resolve(label))),
    };
    const engine = new SkeinEngine();
    engine.registerTool(gated);
    engine.registerWorkflow(
      parallel([
        { name: 'a', ms: 0, label: 'A' },
        { name: 'b', ms: 0, label: 'B' },
        { name: 'c', ms: 0, label: 'C' },
      ]),
    );
    const finished = collect(engine, 'thread:completed');
    const running = engine.run('par', { threadId: 'top' });
    for (const [label, path] of [
      ['B', 'fan/b'],
      ['C', 'fan/c'],
      ['A', 'fan/a'],
    ] as const) {
      await until(() => answer.has(label));
      answer.get(label)!();
      await until(() => finished.some((e) => e.branchPath === path));
    }
    const { result } = await running;
    expect(result.output).toEqual(['A', 'B', 'C']);
    // The branches finished b, c, a; their events name the parent and the branch.
    const branchEvents = finished.filter((e) => e.parentThreadId === 'top');
    expect(branchEvents.map((e) => e.branchPath)).toEqual(['fan/b', 'fan/c', 'fan/a']);
    expect(branchEvents.every((e) => e.rootThreadId === 'top')).toBe(true);
  });

  it('wait: any takes the first to complete and cancels the others', async () => {
    const engine = new SkeinEngine();
    engine.registerTool(slowTool);
    engine.registerWorkflow(
      parallel(
        [
          { name: 'a', ms: 2_000, label: 'A' },
          { name: 'b', ms: 5, label: 'B' },
        ],
        { wait: 'any' },
      ),
    );
    const cancelled = collect(engine, 'thread:cancelled');
    const { result } = await engine.run('par');
    expect(result.output).toEqual(['B']);
    expect(cancelled.map((e) => e.branchPath)).toEqual(['fan/a']);
  });

  it('wait: first n', async () => {
    const engine = new SkeinEngine();
    engine.registerTool(slowTool);
    engine.registerWorkflow(
      parallel(
        [
          { name: 'a', ms: 2_000, label: 'A' },
          { name: 'b', ms: 5, label: 'B' },
          { name: 'c', ms: 10, label: 'C' },
        ],
        { wait: { first: 2 } },
      ),
    );
    const { result } = await engine.run('par');
    expect(result.output).toEqual(['B', 'C']);
  });

  it('fail-fast: a failed branch cancels the others and fails the node naming the branch', async () => {
    const engine = new SkeinEngine();
    engine.registerTool(slowTool);
    const wf = parallel([
      { name: 'ok', ms: 2_000, label: 'A' },
      { name: 'bad', ms: 1, label: 'boom' },
    ]);
    // A TOOL node's failure is its output, so the bad branch fails on an expression instead.
    engine.registerWorkflow({
      ...wf,
      nodes: wf.nodes.map((n) =>
        n.id === 't_bad'
          ? {
              id: 't_bad',
              type: 'VARIABLE' as const,
              config: { assign: { v: 'vars.missing.deep' } },
            }
          : n,
      ),
    });
    const cancelled = collect(engine, 'thread:cancelled');
    const { result } = await engine.run('par');
    expect(result.status).toBe('FAILED');
    expect(result.error?.code).toBe('BRANCH_FAILED');
    expect(result.error?.message).toContain('fan/bad');
    expect(cancelled.map((e) => e.branchPath)).toEqual(['fan/ok']);
  });

  it('fail-fast stays stopped when a branch still running ends after the failure', async () => {
    const engine = new SkeinEngine();
    engine.registerTool(slowTool);
    const wf = parallel([
      { name: 'bad', ms: 1, label: 'boom' },
      { name: 'slow', ms: 2_000, label: 'S' },
      { name: 'later1', ms: 1, label: 'L1' },
      { name: 'later2', ms: 1, label: 'L2' },
    ]);
    engine.registerWorkflow({
      ...wf,
      nodes: wf.nodes.map((n) => {
        if (n.id === 'fan' && n.type === 'PARALLEL')
          return { ...n, config: { ...n.config, maxConcurrency: 2 } };
        if (n.id === 't_bad')
          return {
            id: 't_bad',
            type: 'VARIABLE' as const,
            config: { assign: { v: 'vars.missing.deep' } },
          };
        return n;
      }),
    });
    const started = collect(engine, 'thread:started');
    const { result } = await engine.run('par');
    expect(result.error?.code).toBe('BRANCH_FAILED');
    // The slow branch is cancelled and ends after the failure; the workers must not take the
    // branches that never started.
    expect(started.map((e) => e.branchPath).filter(Boolean)).toEqual(['fan/bad', 'fan/slow']);
  });

  it('collect: one record per branch, failures included', async () => {
    const engine = new SkeinEngine();
    engine.registerWorkflow({
      id: 'c',
      version: '1',
      nodes: [
        { id: 'start', type: 'START' },
        {
          id: 'fan',
          type: 'PARALLEL',
          config: {
            branches: [
              { name: 'ok', start: 'good' },
              { name: 'bad', start: 'broken' },
            ],
            join: 'join',
          },
        },
        { id: 'good', type: 'VARIABLE', config: { assign: { v: '1 + 1' } } },
        { id: 'broken', type: 'VARIABLE', config: { assign: { v: 'vars.missing.deep' } } },
        { id: 'join', type: 'JOIN', config: { onError: 'collect', output: 'vars.v' } },
        { id: 'end', type: 'END' },
      ],
      edges: [
        { from: 'start', to: 'fan' },
        { from: 'good', to: 'join' },
        { from: 'broken', to: 'join' },
        { from: 'join', to: 'end' },
      ],
    });
    const { result } = await engine.run('c');
    expect(result.status).toBe('COMPLETED');
    expect(result.output).toEqual([
      { branch: 'fan/ok', status: 'COMPLETED', output: 2 },
      {
        branch: 'fan/bad',
        status: 'FAILED',
        error: { code: expect.any(String), message: expect.any(String) },
      },
    ]);
  });
});

describe('the conversation across branches', () => {
  function llmBranches(merge: unknown, conversation?: 'forked' | 'isolated') {
    return {
      id: 'talk',
      version: '1',
      initialTools: ['slow'],
      nodes: [
        { id: 'start', type: 'START' },
        {
          id: 'intro',
          type: 'VARIABLE',
          config: { message: { role: 'user', content: 'Compare cities' } },
        },
        {
          id: 'fan',
          type: 'MAP',
          config: {
            items: 'vars.cities',
            start: 'ask',
            join: 'join',
            ...(conversation ? { conversation } : {}),
          },
        },
        { id: 'ask', type: 'LLM', config: { prompt: 'About {{ vars.item }}' } },
        { id: 'join', type: 'JOIN', config: { merge } },
        { id: 'end', type: 'END' },
      ],
      edges: [
        { from: 'start', to: 'intro' },
        { from: 'intro', to: 'fan' },
        { from: 'ask', to: 'join' },
        { from: 'join', to: 'end' },
      ],
    } as WorkflowDefinition;
  }

  // Each city's branch first calls the tool, then answers.
  const llm = () =>
    new ScriptedLLMClient((request) => {
      const last = request.messages[request.messages.length - 1]!;
      const city =
        /About (\w+)/.exec(request.messages.map((m) => m.content).join('\n'))?.[1] ?? '?';
      if (last.role === 'tool') return { content: `${city} is fine` };
      return {
        toolCalls: [
          {
            id: `c_${city}`,
            name: 'slow',
            arguments: { ms: city === 'Oslo' ? 20 : 1, label: city },
          },
        ],
        usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
      };
    });

  it('forked branches see the parent view with one tool description each', async () => {
    const client = llm();
    const engine = new SkeinEngine({ llm: client });
    engine.registerTool(slowTool);
    engine.registerWorkflow(llmBranches('none'));
    const { result } = await engine.run('talk', { variables: { cities: ['Oslo', 'Rome'] } });
    expect(result.status).toBe('COMPLETED');
    for (const call of client.requests) {
      expect(call.messages.filter((m) => m.metadata?.kind === 'tool-description')).toHaveLength(1);
      expect(call.messages.some((m) => m.content === 'Compare cities')).toBe(true);
    }
  });

  it('isolated branches start empty', async () => {
    const client = llm();
    const engine = new SkeinEngine({ llm: client });
    engine.registerTool(slowTool);
    engine.registerWorkflow(llmBranches('none', 'isolated'));
    await engine.run('talk', { variables: { cities: ['Oslo'] } });
    expect(client.requests[0]!.messages.some((m) => m.content === 'Compare cities')).toBe(false);
    expect(
      client.requests[0]!.messages.filter((m) => m.metadata?.kind === 'tool-description'),
    ).toHaveLength(1);
  });

  it('merge final-message: each branch answer in branch order; usage and events reach the parent', async () => {
    const engine = new SkeinEngine({ llm: llm() });
    engine.registerTool(slowTool);
    engine.registerWorkflow(llmBranches('final-message'));
    const { thread, result } = await engine.run('talk', {
      variables: { cities: ['Oslo', 'Rome'] },
    });
    const tail = thread.conversation
      .getMessages()
      .slice(-2)
      .map((m) => m.content);
    expect(tail).toEqual(['Oslo is fine', 'Rome is fine']);
    expect(result.usage.totalTokens).toBeGreaterThanOrEqual(30);
  });

  it('merge exchange: whole exchanges in branch order, never split', async () => {
    const engine = new SkeinEngine({ llm: llm() });
    engine.registerTool(slowTool);
    engine.registerWorkflow(llmBranches('exchange'));
    const { thread } = await engine.run('talk', { variables: { cities: ['Oslo', 'Rome'] } });
    const all = thread.conversation.getMessages();
    const from = all.findIndex((m) => m.content === 'About Oslo');
    const roles = all.slice(from).map((m) => `${m.role}:${m.content.slice(0, 10)}`);
    expect(roles).toEqual([
      'user:About Oslo',
      'assistant:',
      'tool:Oslo',
      'assistant:Oslo is fi',
      'user:About Rome',
      'assistant:',
      'tool:Rome',
      'assistant:Rome is fi',
    ]);
  });

  it('merge by a named function', async () => {
    const engine = new SkeinEngine({
      llm: llm(),
      mergers: {
        summary: (branches) => [
          {
            role: 'assistant',
            content: branches.map((b) => `${b.path}:${b.messages.length}`).join(','),
          },
        ],
      },
    });
    engine.registerTool(slowTool);
    engine.registerWorkflow(llmBranches({ function: 'summary' }));
    const { thread } = await engine.run('talk', { variables: { cities: ['Oslo', 'Rome'] } });
    expect(thread.conversation.getMessages().at(-1)?.content).toBe('fan[0]:4,fan[1]:4');
  });
});

describe('loadThreadTree', () => {
  it('gives every branch of a stored thread with its own conversation, in path order', async () => {
    const store = new InMemoryCheckpointStore();
    const engine = new SkeinEngine({ store });
    engine.registerWorkflow(doubleEach());
    await engine.run('double', {
      threadId: 'tree',
      variables: { items: Array.from({ length: 12 }, (_, i) => i) },
    });
    const { thread, branches } = await engine.loadThreadTree('tree');
    expect(thread.status).toBe('COMPLETED');
    expect(branches.map((b) => b.path)).toEqual(Array.from({ length: 12 }, (_, i) => `fan[${i}]`));
    expect(branches.every((b) => b.thread.state.parent?.threadId === 'tree')).toBe(true);
    await expect(new SkeinEngine().loadThreadTree('tree')).rejects.toMatchObject({
      code: 'CHECKPOINT_NOT_FOUND',
    });
  });
});

describe('WorkflowBuilder for branches', () => {
  it('builds a MAP with its JOIN that runs', async () => {
    const { WorkflowBuilder } = await import('../workflow/workflow-builder.js');
    const definition = new WorkflowBuilder('built', '1')
      .start()
      .map('fan', { items: 'vars.items', start: 'sq', join: 'join', maxConcurrency: 2 })
      .variable('sq', { assign: { sq: 'vars.item * vars.item' } })
      .join('join', { output: 'vars.sq' })
      .end('end')
      .chain('start', 'fan')
      .chain('sq', 'join', 'end')
      .build();
    const engine = new SkeinEngine();
    engine.registerWorkflow(definition);
    const { result } = await engine.run('built', { variables: { items: [1, 2, 3] } });
    expect(result.output).toEqual([1, 4, 9]);
  });
});
