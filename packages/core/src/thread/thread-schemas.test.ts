import { SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import type { Tool } from '../tools/tool.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

function engineWith(schema: Record<string, unknown>) {
  const engine = new SkeinEngine();
  engine.registerWorkflow(
    new WorkflowBuilder('w', '1')
      .variables({ schema, defaults: { city: 'Oslo' } })
      .start()
      .end('end', { output: 'vars.city' })
      .chain('start', 'end')
      .build(),
  );
  return engine;
}

describe('thread schemas and tools follow the registry rules', () => {
  it('builds a thread whose variables schema is JSON Schema 2020-12', async () => {
    const engine = engineWith({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    });
    const thread = engine.createThread('w');
    expect((await engine.run(thread)).result.status).toBe('COMPLETED');
    expect(() => engine.createThread('w', { variables: { city: 3 } })).toThrow(/city/);
  });

  it('refuses a dynamic tool the registry would refuse, before anything changes', () => {
    const engine = engineWith({ type: 'object' });
    const thread = engine.createThread('w');
    const bad: Tool = {
      name: 'dyn',
      description: 'a dynamic tool with a timer Node cannot set',
      parameters: { type: 'object' },
      timeoutMs: 2 ** 31,
      execute: () => 'x',
    };
    let error: unknown;
    try {
      thread.addDynamicTools([bad]);
    } catch (e) {
      error = e;
    }
    expect(SkeinError.hasCode(error, 'INVALID_TOOL')).toBe(true);
    expect(thread.state.dynamicTools).toEqual([]);
  });
});
