import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import { WorkflowValidationError } from '../errors/workflow-validation-error.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import { defineTool } from '../tools/define-tool.js';
import type { LLMOutputConfig } from '../workflow/types.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

const schema = {
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' } },
  required: ['city', 'celsius'],
  additionalProperties: false,
};

function workflow(output: LLMOutputConfig | Record<string, unknown>, tools?: string[]) {
  return new WorkflowBuilder('extract', '1')
    .start()
    .llm('extract', {
      prompt: 'Oslo is at 4 degrees.',
      output: output as LLMOutputConfig,
      outputVariable: 'weather',
      retry: { maxAttempts: 2, initialDelayMs: 1 },
      ...(tools ? { tools } : {}),
    })
    .end('end', { output: 'vars.weather' })
    .chain('start', 'extract', 'end')
    .build();
}

function engineWith(llm: ScriptedLLMClient): SkeinEngine {
  const engine = new SkeinEngine({ llm });
  engine.registerTool(
    defineTool({
      name: 'lookup',
      description: 'Temperature of a city',
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      execute: async () => ({ celsius: 4 }),
    }),
  );
  return engine;
}

describe('an LLM node with output: { schema }', () => {
  it('asks for JSON matching the schema and makes the parsed answer its output', async () => {
    const llm = new ScriptedLLMClient([{ content: '{"city":"Oslo","celsius":4}' }]);
    const engine = engineWith(llm);
    engine.registerWorkflow(workflow({ schema, name: 'weather' }));
    const { result } = await engine.run('extract');
    expect(result.status).toBe('COMPLETED');
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect(llm.requests[0]!.responseFormat).toEqual({ type: 'json', schema, name: 'weather' });
  });

  it('names the schema "output" unless told, and passes strict on', async () => {
    const llm = new ScriptedLLMClient([{ content: '{"city":"Oslo","celsius":4}' }]);
    const engine = engineWith(llm);
    engine.registerWorkflow(workflow({ schema, strict: true }));
    await engine.run('extract');
    expect(llm.requests[0]!.responseFormat).toEqual({
      type: 'json',
      schema,
      name: 'output',
      strict: true,
    });
  });

  it('retries an answer that does not match, and keeps only the good one', async () => {
    const llm = new ScriptedLLMClient([
      { content: '{"city":"Oslo"}' },
      { content: '{"city":"Oslo","celsius":4}' },
    ]);
    const engine = engineWith(llm);
    engine.registerWorkflow(workflow({ schema }));
    const warnings: string[] = [];
    engine.events.on('warning', (w) => warnings.push(w.message));
    const { result, thread } = await engine.run('extract');
    expect(result.status).toBe('COMPLETED');
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect(llm.calls).toHaveLength(2);
    expect(warnings.join('\n')).toMatch(/must have required property 'celsius'/);
    // The rejected answer never reached the conversation.
    const answers = thread.conversation.getMessages().filter((m) => m.role === 'assistant');
    expect(answers.map((m) => m.content)).toEqual(['{"city":"Oslo","celsius":4}']);
  });

  it('fails with OUTPUT_INVALID (retryable) when every attempt is wrong', async () => {
    const llm = new ScriptedLLMClient([{ content: 'It is 4 degrees in Oslo.' }], {
      whenExhausted: 'repeat-last',
    });
    const engine = engineWith(llm);
    engine.registerWorkflow(workflow({ schema }));
    const { result } = await engine.run('extract');
    expect(result.status).toBe('FAILED');
    expect(llm.calls).toHaveLength(2);
    expect(result.error).toMatchObject({ code: 'LLM_CALL_FAILED', retryable: true });
    const cause = result.error!.cause as { code: string; nodeId: string; problems: string };
    expect(cause).toMatchObject({ code: 'OUTPUT_INVALID', nodeId: 'extract', retryable: true });
    expect(cause.problems).toMatch(/^not JSON/);
  });

  it('checks only the final answer, not the turns that call tools', async () => {
    const llm = new ScriptedLLMClient([
      { content: 'Looking it up.', toolCalls: [{ name: 'lookup', arguments: { city: 'Oslo' } }] },
      { content: '{"city":"Oslo","celsius":4}' },
    ]);
    const engine = engineWith(llm);
    engine.registerWorkflow(workflow({ schema }, ['lookup']));
    const { result } = await engine.run('extract');
    expect(result.status).toBe('COMPLETED');
    expect(result.output).toEqual({ city: 'Oslo', celsius: 4 });
    expect(llm.requests.map((r) => r.responseFormat?.type)).toEqual(['json', 'json']);
  });

  it.each([
    [{ schema: 'object' }, 'nodes[1].config.output.schema', /JSON Schema object/],
    [{ schema: { type: 'nope' } }, 'nodes[1].config.output.schema', /does not compile/],
    [{ schema, name: 'has space' }, 'nodes[1].config.output.name', /a-zA-Z0-9_-/],
    [{ schema, strict: 'yes' }, 'nodes[1].config.output.strict', /boolean/],
    [[schema], 'nodes[1].config.output', /must be an object/],
  ])('refuses a bad output config %j at registration, naming the node', (output, path, message) => {
    const engine = engineWith(new ScriptedLLMClient([]));
    let thrown: unknown;
    try {
      engine.registerWorkflow(workflow(output as Record<string, unknown>));
    } catch (error) {
      thrown = error;
    }
    expect(WorkflowValidationError.isInstance(thrown)).toBe(true);
    const issues = (thrown as WorkflowValidationError).issues;
    expect(issues).toContainEqual(
      expect.objectContaining({ nodeId: 'extract', path, code: 'INVALID_NODE_CONFIG' }),
    );
    expect(issues.find((i) => i.path === path)!.message).toMatch(message);
  });
});
