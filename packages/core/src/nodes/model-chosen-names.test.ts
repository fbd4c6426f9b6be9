import { describe, expect, it } from 'vitest';
import type { Checkpoint, CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { ScriptStep } from '../testing/types.js';
import type { Tool } from '../tools/tool.js';
import type { TriggerDefinition } from '../workflow/types.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

const add: Tool<{ a: number; b: number }> = {
  name: 'add',
  description: 'Adds two numbers',
  parameters: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  execute: ({ a, b }) => a + b,
};

/** Keeps JSON copies, as a database would. */
class JsonStore extends InMemoryCheckpointStore {
  override save(checkpoint: Checkpoint) {
    return super.save(JSON.parse(JSON.stringify(checkpoint)));
  }
}

function engineWith(script: ScriptStep[], triggers: TriggerDefinition[], store?: CheckpointStore) {
  const llm = new ScriptedLLMClient(script);
  const engine = new SkeinEngine({ llm, ...(store ? { store } : {}) });
  engine.registerTool(add);
  let builder = new WorkflowBuilder('w', '1')
    .initialTools(['add'])
    .start()
    .llm('ask', { prompt: 'go' })
    .userInteraction('wait')
    .end('end')
    .chain('start', 'ask', 'wait', 'end');
  for (const trigger of triggers) builder = builder.trigger(trigger);
  engine.registerWorkflow(builder.build());
  return { engine, llm };
}

const flag = (id: string, tool?: string, times = 1): TriggerDefinition => ({
  id,
  when: { type: 'tool-failed', times, ...(tool === undefined ? {} : { tool }) },
  action: { type: 'set-variable', variable: id, expression: 'true' },
});

const strangeCalls: ScriptStep[] = [
  {
    toolCalls: [
      { name: 'toString', arguments: {} },
      { name: 'constructor', arguments: {} },
      { name: '__proto__', arguments: {} },
    ],
  },
  { content: 'done' },
];

describe('tool names chosen by the model', () => {
  it('count failures per name even for toString, constructor and __proto__', async () => {
    const { engine } = engineWith(strangeCalls, [
      flag('toString', 'toString'),
      flag('constructor', 'constructor'),
      flag('proto', '__proto__'),
    ]);
    const { thread } = await engine.run('w');
    expect(thread.variables).toMatchObject({ toString: true, constructor: true, proto: true });
    const counts = thread.state.toolFailures;
    expect(Object.getPrototypeOf(counts)).toBeNull();
    expect(Object.keys(counts).sort()).toEqual(['__proto__', 'constructor', 'toString']);
    for (const name of Object.keys(counts)) expect(counts[name]).toBe(0);
  });

  it('add up for a trigger on any tool, and survive a JSON store as counts', async () => {
    const store = new JsonStore();
    const { engine } = engineWith(strangeCalls, [flag('none', 'add')], store);
    await engine.run('w', { threadId: 't' });
    const thread = await engine.loadThread('t');
    const counts = thread.state.toolFailures;
    expect(Object.getPrototypeOf(counts)).toBeNull();
    expect({ ...counts }).toEqual({ toString: 1, constructor: 1, ['__proto__']: 1 });
    expect(Object.getOwnPropertyNames(counts)).toContain('__proto__');

    const { engine: total } = engineWith(strangeCalls, [flag('all', undefined, 3)]);
    expect((await total.run('w')).thread.variables.all).toBe(true);
  });
});

describe('two tool calls with one id in one response', () => {
  it('each get their own result, under ids made unique before the provider sees them', async () => {
    const { engine, llm } = engineWith(
      [
        {
          toolCalls: [
            { id: 'dup', name: 'add', arguments: { a: 1, b: 2 } },
            { id: 'dup', name: 'add', arguments: { a: 3, b: 4 } },
          ],
        },
        { content: 'done' },
      ],
      [],
    );
    const { thread } = await engine.run('w');
    const messages = thread.conversation.getMessages();
    const assistant = messages.find((m) => m.toolCalls)!;
    expect(assistant.toolCalls!.map((c) => c.id)).toEqual(['dup', 'dup_2']);
    const results = messages.filter((m) => m.role === 'tool');
    expect(results.map((m) => [m.toolCallId, m.content])).toEqual([
      ['dup', '3'],
      ['dup_2', '7'],
    ]);
    const sent = llm.requests[1]!.messages;
    expect(sent.find((m) => m.toolCalls)!.toolCalls!.map((c) => c.id)).toEqual(['dup', 'dup_2']);
    expect(sent.filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual([
      'dup',
      'dup_2',
    ]);
  });
});
