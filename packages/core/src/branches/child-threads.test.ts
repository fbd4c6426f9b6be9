import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { collect } from '../test-support/executor-fixtures.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import { workflowTool } from '../tools/workflow-tool.js';
import type { WorkflowDefinition } from '../workflow/types.js';

const itinerary: WorkflowDefinition = {
  id: 'itinerary',
  version: '1',
  variables: {
    schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  },
  nodes: [
    { id: 'start', type: 'START' },
    { id: 'write', type: 'VARIABLE', config: { assign: { plan: '"Day 1 in " + vars.city' } } },
    { id: 'end', type: 'END', config: { output: 'vars.plan' } },
  ],
  edges: [
    { from: 'start', to: 'write' },
    { from: 'write', to: 'end' },
  ],
};

function parentOf(config: Record<string, unknown>): WorkflowDefinition {
  return {
    id: 'trip',
    version: '1',
    nodes: [
      { id: 'start', type: 'START' },
      { id: 'sub', type: 'SUBWORKFLOW', config: { workflow: 'itinerary', ...config } },
      { id: 'end', type: 'END', config: { output: 'vars.final' } },
    ],
    edges: [
      { from: 'start', to: 'sub' },
      { from: 'sub', to: 'end' },
    ],
  };
}

describe('SUBWORKFLOW', () => {
  it('runs a registered workflow as a child thread and maps input and output', async () => {
    const store = new InMemoryCheckpointStore();
    const engine = new SkeinEngine({ store });
    engine.registerWorkflow(itinerary);
    engine.registerWorkflow(
      parentOf({ input: { city: 'vars.destination' }, output: { final: 'output + "!"' } }),
    );
    const started = collect(engine, 'thread:started');
    const { result } = await engine.run('trip', {
      threadId: 't',
      variables: { destination: 'Lisbon' },
    });
    expect(result.output).toBe('Day 1 in Lisbon!');
    const child = started.find((e) => e.workflowId === 'itinerary')!;
    expect(child).toMatchObject({ threadId: 't/sub@1', parentThreadId: 't', branchPath: 'sub' });
    const stored = await engine.loadThread('t/sub@1');
    expect(stored.state.parent?.depth).toBe(1);
    expect(stored.status).toBe('COMPLETED');
  });

  it("checks the child's variables against its schema: a typed failure naming the child", async () => {
    const engine = new SkeinEngine();
    engine.registerWorkflow(itinerary);
    engine.registerWorkflow(parentOf({ input: { town: 'vars.destination' } }));
    const { result } = await engine.run('trip', { variables: { destination: 'Lisbon' } });
    expect(result.status).toBe('FAILED');
    expect(result.error?.code).toBe('INVALID_VARIABLES');
  });

  it('refuses a workflow that runs itself, statically', () => {
    const engine = new SkeinEngine();
    expect(() =>
      engine.registerWorkflow({
        ...parentOf({}),
        nodes: [
          ...parentOf({}).nodes.slice(0, 1),
          { id: 'sub', type: 'SUBWORKFLOW', config: { workflow: 'trip' } },
          parentOf({}).nodes[2]!,
        ],
      }),
    ).toThrow(/SUBWORKFLOW_CYCLE/);
  });

  it('refuses a cycle through registered workflows, and stops a runtime one at maxDepth', async () => {
    const engine = new SkeinEngine({ maxDepth: 3 });
    const ping = (id: string, other: string): WorkflowDefinition => ({
      id,
      version: '1',
      nodes: [
        { id: 'start', type: 'START' },
        { id: 'sub', type: 'SUBWORKFLOW', config: { workflow: other } },
        { id: 'end', type: 'END' },
      ],
      edges: [
        { from: 'start', to: 'sub' },
        { from: 'sub', to: 'end' },
      ],
    });
    // b is registered before a exists, so only a's registration can see the cycle.
    engine.registerWorkflow(ping('b', 'a'));
    expect(() => engine.registerWorkflow(ping('a', 'b'))).toThrow(/a -> b -> a/);
    // A workflow tool can still reach itself at run time: the depth limit stops it.
    const engine2 = new SkeinEngine({
      maxDepth: 3,
      llm: new ScriptedLLMClient(() => ({
        toolCalls: [{ id: 'c1', name: 'again', arguments: {} }],
      })),
    });
    engine2.registerTool(
      workflowTool('loop', {
        name: 'again',
        description: 'runs loop',
        parameters: { type: 'object', properties: {} },
      }),
    );
    engine2.registerWorkflow({
      id: 'loop',
      version: '1',
      nodes: [
        { id: 'start', type: 'START' },
        { id: 'ask', type: 'LLM', config: { tools: ['again'], maxToolRounds: 1 } },
        { id: 'end', type: 'END' },
      ],
      edges: [
        { from: 'start', to: 'ask' },
        { from: 'ask', to: 'end' },
      ],
    });
    const errors = collect(engine2, 'tool:error');
    const { result } = await engine2.run('loop', { threadId: 'L' });
    expect(result.status).toBe('COMPLETED');
    expect(errors.some((e) => e.code === 'SUBWORKFLOW_DEPTH_EXCEEDED')).toBe(true);
  });
});

describe('workflowTool', () => {
  it('lets an LLM node call a workflow like a tool; usage and events go to the caller', async () => {
    const llm = new ScriptedLLMClient((request) => {
      if (request.messages.at(-1)?.role === 'tool')
        return { content: `Planned: ${request.messages.at(-1)!.content}` };
      return {
        toolCalls: [{ id: 'call1', name: 'plan_trip', arguments: { city: 'Porto' } }],
        usage: { promptTokens: 7, completionTokens: 3, totalTokens: 10 },
      };
    });
    const engine = new SkeinEngine({ llm });
    engine.registerWorkflow(itinerary);
    engine.registerTool(
      workflowTool('itinerary', {
        name: 'plan_trip',
        description: 'Writes an itinerary',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
        },
      }),
    );
    engine.registerWorkflow({
      id: 'agent',
      version: '1',
      initialTools: ['plan_trip'],
      nodes: [
        { id: 'start', type: 'START' },
        { id: 'ask', type: 'LLM', config: { prompt: 'Plan' } },
        { id: 'end', type: 'END' },
      ],
      edges: [
        { from: 'start', to: 'ask' },
        { from: 'ask', to: 'end' },
      ],
    });
    const completed = collect(engine, 'thread:completed');
    const { result } = await engine.run('agent', { threadId: 'A' });
    expect(result.output).toBe('Planned: Day 1 in Porto');
    const child = completed.find((e) => e.parentThreadId === 'A')!;
    expect(child.threadId).toBe('A/ask@1#call1');
    expect(child.branchPath).toBe('ask#call1');
  });

  it('bad arguments are refused before the child starts', async () => {
    const llm = new ScriptedLLMClient([
      { toolCalls: [{ id: 'c', name: 'plan_trip', arguments: { city: 42 } }] },
      { content: 'ok' },
    ]);
    const engine = new SkeinEngine({ llm });
    engine.registerWorkflow(itinerary);
    engine.registerTool(
      workflowTool('itinerary', {
        name: 'plan_trip',
        description: 'Writes an itinerary',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' } },
          required: ['city'],
        },
      }),
    );
    engine.registerWorkflow({
      id: 'agent',
      version: '1',
      initialTools: ['plan_trip'],
      nodes: [
        { id: 'start', type: 'START' },
        { id: 'ask', type: 'LLM', config: { prompt: 'Plan' } },
        { id: 'end', type: 'END' },
      ],
      edges: [
        { from: 'start', to: 'ask' },
        { from: 'ask', to: 'end' },
      ],
    });
    const started = collect(engine, 'thread:started');
    const errors = collect(engine, 'tool:error');
    await engine.run('agent');
    expect(errors[0]?.code).toBe('TOOL_ARGUMENTS_INVALID');
    expect(started).toHaveLength(1);
  });
});

describe('pause, resume and abort across branches', () => {
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
            { name: 'legal', start: 'askLegal' },
            { name: 'auto', start: 'calc' },
            { name: 'finance', start: 'askFinance' },
          ],
          join: 'join',
        },
      },
      {
        id: 'askLegal',
        type: 'USER_INTERACTION',
        config: { prompt: 'Legal ok?', variable: 'answer' },
      },
      { id: 'calc', type: 'VARIABLE', config: { assign: { answer: '"computed"' } } },
      {
        id: 'askFinance',
        type: 'USER_INTERACTION',
        config: { prompt: 'Finance ok?', variable: 'answer' },
      },
      { id: 'join', type: 'JOIN', config: { output: 'vars.answer', outputVariable: 'answers' } },
      { id: 'end', type: 'END', config: { output: 'vars.answers' } },
    ],
    edges: [
      { from: 'start', to: 'fan' },
      { from: 'askLegal', to: 'join' },
      { from: 'calc', to: 'join' },
      { from: 'askFinance', to: 'join' },
      { from: 'join', to: 'end' },
    ],
  };

  it('pauses with one entry per waiting branch; resume answers one branch by its path', async () => {
    const engine = new SkeinEngine();
    engine.registerWorkflow(approvals);
    const { thread, result } = await engine.run('approve', { threadId: 'P' });
    expect(result.status).toBe('PAUSED');
    expect(result.pending).toEqual({
      kind: 'branches',
      nodeId: 'fan',
      waiting: [
        { path: 'fan/legal', threadId: 'P/fan@1/legal', reason: 'user-input', prompt: 'Legal ok?' },
        {
          path: 'fan/finance',
          threadId: 'P/fan@1/finance',
          reason: 'user-input',
          prompt: 'Finance ok?',
        },
      ],
    });
    await expect(engine.resume(thread, { branch: 'fan/nope', input: 'x' })).rejects.toMatchObject({
      code: 'RESUME_INPUT_INVALID',
    });
    expect(thread.status).toBe('PAUSED');
    const { result: second } = await engine.resume(thread, {
      branch: 'fan/finance',
      input: 'yes F',
    });
    expect(second.status).toBe('PAUSED');
    expect(second.pending).toMatchObject({ waiting: [{ path: 'fan/legal' }] });
    const { result: done } = await engine.resume(thread, { branch: 'fan/legal', input: 'yes L' });
    expect(done.status).toBe('COMPLETED');
    expect(done.output).toEqual(['yes L', 'computed', 'yes F']);
  });

  it('a paused fan-out resumes from the store in a new engine', async () => {
    const store = new InMemoryCheckpointStore();
    const first = new SkeinEngine({ store });
    first.registerWorkflow(approvals);
    await first.run('approve', { threadId: 'Q' });
    const second = new SkeinEngine({ store });
    second.registerWorkflow(approvals);
    const thread = await second.loadThread('Q');
    await second.resume(thread, { branch: 'fan/legal', input: 'L' });
    const { result } = await second.resume(thread, { branch: 'fan/finance', input: 'F' });
    expect(result.output).toEqual(['L', 'computed', 'F']);
  });

  it('nested: a subworkflow waiting inside a MAP branch is answered by its full path', async () => {
    const engine = new SkeinEngine();
    engine.registerWorkflow({
      id: 'inner',
      version: '1',
      nodes: [
        { id: 'start', type: 'START' },
        { id: 'ask', type: 'USER_INTERACTION', config: { variable: 'a' } },
        { id: 'end', type: 'END', config: { output: 'vars.a' } },
      ],
      edges: [
        { from: 'start', to: 'ask' },
        { from: 'ask', to: 'end' },
      ],
    });
    engine.registerWorkflow({
      id: 'outer',
      version: '1',
      nodes: [
        { id: 'start', type: 'START' },
        { id: 'm', type: 'MAP', config: { items: '[1, 2]', start: 'sub', join: 'j' } },
        { id: 'sub', type: 'SUBWORKFLOW', config: { workflow: 'inner' } },
        { id: 'j', type: 'JOIN' },
        { id: 'end', type: 'END' },
      ],
      edges: [
        { from: 'start', to: 'm' },
        { from: 'sub', to: 'j' },
        { from: 'j', to: 'end' },
      ],
    });
    const { thread, result } = await engine.run('outer');
    expect(result.pending).toMatchObject({
      waiting: [{ path: 'm[0]/sub' }, { path: 'm[1]/sub' }],
    });
    await engine.resume(thread, { branch: 'm[1]/sub', input: 'two' });
    const { result: done } = await engine.resume(thread, { branch: 'm[0]/sub', input: 'one' });
    expect(done.output).toEqual(['one', 'two']);
  });

  it('abort reaches every running branch', async () => {
    const llm = new ScriptedLLMClient(() => ({ hang: true }));
    const engine = new SkeinEngine({ llm });
    engine.registerWorkflow({
      id: 'hang',
      version: '1',
      nodes: [
        { id: 'start', type: 'START' },
        { id: 'm', type: 'MAP', config: { items: '[1, 2, 3]', start: 'ask', join: 'j' } },
        { id: 'ask', type: 'LLM', config: { prompt: 'wait' } },
        { id: 'j', type: 'JOIN' },
        { id: 'end', type: 'END' },
      ],
      edges: [
        { from: 'start', to: 'm' },
        { from: 'ask', to: 'j' },
        { from: 'j', to: 'end' },
      ],
    });
    const cancelled = collect(engine, 'thread:cancelled');
    const requests = collect(engine, 'llm:request');
    // Aborted once all three branches wait on the model, however long a busy machine takes
    // to start them (a fixed 30 ms wait could abort before the last one had started).
    const allWaiting = new Promise<void>((resolve) => {
      engine.events.on('llm:request', () => {
        if (requests.length === 3) resolve();
      });
    });
    const controller = new AbortController();
    const running = engine.run('hang', { threadId: 'H', signal: controller.signal });
    await allWaiting;
    controller.abort();
    const { result } = await running;
    expect(result.status).toBe('CANCELLED');
    expect(cancelled.map((e) => e.threadId).sort()).toEqual([
      'H',
      'H/m@1[0]',
      'H/m@1[1]',
      'H/m@1[2]',
    ]);
  });
});

describe('a fan-out cancelled from outside', () => {
  it('is undone, and running the thread again runs the unfinished branches only', async () => {
    const store = new InMemoryCheckpointStore();
    const calls: number[] = [];
    const engine = new SkeinEngine({ store });
    engine.registerTool({
      name: 'wait',
      description: 'waits, then echoes',
      parameters: { type: 'object', properties: { n: { type: 'string' } }, required: ['n'] },
      execute: async (args: { n: string }, { signal }) => {
        const n = Number(args.n);
        calls.push(n);
        await new Promise((resolve, reject) => {
          const t = setTimeout(resolve, n === 0 ? 1 : 5_000);
          signal.addEventListener('abort', () => {
            clearTimeout(t);
            reject(signal.reason);
          });
        });
        return n * 10;
      },
    });
    engine.registerWorkflow({
      id: 'slowmap',
      version: '1',
      nodes: [
        { id: 'start', type: 'START' },
        { id: 'm', type: 'MAP', config: { items: '[0, 1, 2]', start: 't', join: 'j' } },
        { id: 't', type: 'TOOL', config: { tool: 'wait', args: { n: '{{ vars.item }}' } } },
        { id: 'j', type: 'JOIN' },
        { id: 'end', type: 'END' },
      ],
      edges: [
        { from: 'start', to: 'm' },
        { from: 't', to: 'j' },
        { from: 'j', to: 'end' },
      ],
    });
    const controller = new AbortController();
    // Cancelled as soon as branch 0 has finished; 1 and 2 are still waiting in their tools.
    engine.events.on('thread:completed', (e) => {
      if (e.branchPath === 'm[0]') controller.abort();
    });
    const first = engine.run('slowmap', { threadId: 'C', signal: controller.signal });
    const { result } = await first;
    expect(result.status).toBe('CANCELLED');
    const thread = await engine.loadThread('C');
    expect(thread.state.currentNodeId).toBe('m');
    engine.events.removeAllListeners('thread:completed');
    const quick = new SkeinEngine({ store });
    quick.registerTool({
      name: 'wait',
      description: 'echoes at once',
      parameters: { type: 'object', properties: { n: { type: 'string' } }, required: ['n'] },
      execute: (args: { n: string }) => {
        calls.push(Number(args.n));
        return Number(args.n) * 10;
      },
    });
    quick.registerWorkflow(engine.workflows.get('slowmap').definition);
    const { result: again } = await quick.run(await quick.loadThread('C'));
    expect(again.status).toBe('COMPLETED');
    expect(again.output).toEqual(['0', '10', '20']);
    // Branch 0 had finished: its tool ran once; 1 and 2 ran again.
    expect(calls.filter((n) => n === 0)).toHaveLength(1);
    expect(calls.filter((n) => n === 1)).toHaveLength(2);
  });
});
