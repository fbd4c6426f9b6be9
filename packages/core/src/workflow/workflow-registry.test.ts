import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import { WorkflowValidationError } from '../errors/workflow-validation-error.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { WorkflowDefinition } from './types.js';
import { WorkflowBuilder } from './workflow-builder.js';
import { WorkflowRegistry } from './workflow-registry.js';

// What the caller keeps of a definition after registering it is theirs: changing it later must not
// reach the registered workflow, nor a thread already running it.

type Mutable = { -readonly [K in keyof WorkflowDefinition]: unknown } & {
  nodes: { config?: Record<string, unknown> }[];
};

function definition(): WorkflowDefinition {
  return new WorkflowBuilder('copied', '1')
    .start()
    .llm('ask', { prompt: '{{ input }}', tools: [], retry: { maxAttempts: 1 } })
    .end()
    .chain('start', 'ask', 'end')
    .trigger({
      id: 'note',
      when: { type: 'node-completed', nodeId: 'ask' },
      action: { type: 'set-variable', variable: 'seen', expression: 'true' },
    })
    .build();
}

function deeplyFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(deeplyFrozen);
}

describe('WorkflowRegistry keeps its own copy of a definition', () => {
  it('registers a deep, frozen copy', () => {
    const def = definition();
    const compiled = new WorkflowRegistry().register(def);
    expect(compiled.definition).toEqual(def);
    expect(compiled.definition).not.toBe(def);
    expect(deeplyFrozen(compiled.definition)).toBe(true);
    expect(compiled.nodes.get('ask')).toBe(compiled.definition.nodes[1]);
    expect(Object.isFrozen(def)).toBe(false);
  });

  it("a thread runs as registered after the caller's object is changed", async () => {
    const llm = new ScriptedLLMClient([{ content: 'first' }, { content: 'second' }]);
    const engine = new SkeinEngine({ llm });
    const def = definition();
    engine.registerWorkflow(def);
    const thread = engine.createThread('copied', { input: 'hi' });

    const mutable = def as unknown as Mutable;
    mutable.triggers = {};
    mutable.nodes[1]!.config!.retry = 'never';
    mutable.nodes[1]!.config!.tools = 5;
    mutable.nodes.push({ config: {} });
    mutable.initialTools = 'abc';

    const { result } = await engine.run(thread);
    expect(result).toMatchObject({ status: 'COMPLETED', output: 'first' });
    expect(thread.state.variables.seen).toBe(true);
    const again = await engine.run('copied', { input: 'again' });
    expect(again.result).toMatchObject({ status: 'COMPLETED', output: 'second' });
  });

  it('refuses what JSON cannot carry, naming where it is', () => {
    const def = definition();
    const withFunction = {
      ...def,
      nodes: [def.nodes[0], { ...def.nodes[1], config: { prompt: () => 'x' } }, def.nodes[2]],
    } as unknown as WorkflowDefinition;
    let error: unknown;
    try {
      new WorkflowRegistry().register(withFunction);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WorkflowValidationError);
    expect((error as WorkflowValidationError).issues).toEqual([
      expect.objectContaining({
        code: 'INVALID_DEFINITION',
        path: 'nodes[1].config.prompt',
        message: expect.stringContaining('a function'),
      }),
    ]);
    const cyclic = definition() as unknown as Mutable;
    cyclic.variables = { defaults: {} };
    (cyclic.variables as { defaults: Record<string, unknown> }).defaults.self = cyclic;
    expect(() => new WorkflowRegistry().register(cyclic as unknown as WorkflowDefinition)).toThrow(
      WorkflowValidationError,
    );
  });
});
