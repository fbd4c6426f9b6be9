import {
  Agent,
  invokeFunctionTool,
  type Model,
  type ModelRequest,
  type ModelResponse,
  RunContext,
  Runner,
  Usage,
} from '@openai/agents-core';
import { SkeinEmitter, type Tool, type ToolExecutionContext, type WarningEvent } from '@skein/core';
import { isToolOutput, type ToolOutput, toolOutput } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { ToolConversionError } from '../errors/tool-conversion-error.js';
import { toolContext } from '../test-support/tool-context.js';
import { fromFunctionTool } from './from-function-tool.js';
import { toFunctionTool } from './to-function-tool.js';

const weatherSchema = {
  type: 'object',
  properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['C', 'F'] } },
  required: ['city'],
};

function weatherTool(overrides: Partial<Tool> = {}): Tool {
  return {
    name: 'get-weather',
    description: 'Current weather of a city',
    parameters: weatherSchema,
    execute: (args: Record<string, unknown>, context: ToolExecutionContext) =>
      `${String(args.city)} 12${String(args.unit ?? 'C')} (thread ${context.threadId}, call ${context.toolCallId})`,
    ...overrides,
  };
}

const invoke = (tool: ReturnType<typeof toFunctionTool>, args: object, context: unknown = {}) =>
  invokeFunctionTool({
    tool,
    runContext: new RunContext(context) as RunContext<never>,
    input: JSON.stringify(args),
    details: {
      toolCall: {
        type: 'function_call',
        callId: 'call-7',
        name: tool.name,
        arguments: JSON.stringify(args),
      },
    },
  });

/** A model that answers from a script, as the Agents SDK's own Model interface asks. */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  readonly #script: ModelResponse['output'][];
  constructor(script: ModelResponse['output'][]) {
    this.#script = script;
  }
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    return { usage: new Usage(), output: this.#script[this.requests.length - 1] ?? [] };
  }
  // biome-ignore lint/correctness/useYield: a run without streaming never asks for it
  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('streaming is not scripted');
  }
}

describe('toFunctionTool', () => {
  it('makes a FunctionTool with the same name (kept exactly), description and schema', () => {
    const ft = toFunctionTool(weatherTool());
    expect(ft.type).toBe('function');
    expect(ft.name).toBe('get-weather');
    expect(ft.description).toBe('Current weather of a city');
    expect(ft.parameters).toEqual(weatherSchema);
    expect(ft.strict).toBe(false);
  });

  it('runs the Skein tool through the SDK invoke path with a thread built from the run context', async () => {
    const seen: ToolExecutionContext[] = [];
    const ft = toFunctionTool(
      weatherTool({
        execute: (args, context) => {
          seen.push(context);
          return `${String(args.city)} for ${String(context.variables.user)}`;
        },
      }),
    );
    expect(await invoke(ft, { city: 'Oslo' }, { user: 'ada' })).toBe('Oslo for ada');
    expect(seen[0]).toMatchObject({
      threadId: 'openai-agents',
      nodeId: 'openai-agents',
      toolCallId: 'call-7',
      variables: { user: 'ada' },
    });
    expect(seen[0]?.signal.aborted).toBe(false);
    expect(seen[0]?.emitter).toBeInstanceOf(SkeinEmitter);
  });

  it('JSON values pass through, a ToolOutput becomes its text', async () => {
    const json = toFunctionTool(weatherTool({ execute: () => ({ celsius: 12 }) }));
    expect(await invoke(json, { city: 'x' })).toEqual({ celsius: 12 });
    const output = toFunctionTool(
      weatherTool({
        execute: () => toolOutput({ content: 'no such city', isError: true, data: { code: 404 } }),
      }),
    );
    expect(await invoke(output, { city: 'x' })).toBe('no such city');
  });

  it('a thrown error reaches an Agents SDK run as text (formatError to change it)', async () => {
    const failing = weatherTool({
      execute: () => {
        throw new Error('service down');
      },
    });
    expect(await invoke(toFunctionTool(failing), { city: 'x' })).toBe(
      'The tool failed: service down',
    );
    const custom = toFunctionTool(failing, {
      formatError: (e) => `weather unavailable (${(e as Error).message})`,
    });
    expect(await invoke(custom, { city: 'x' })).toBe('weather unavailable (service down)');
  });

  it('options: another name, the thread of a call, the emitter warnings go to', async () => {
    const emitter = new SkeinEmitter();
    const warnings: WarningEvent[] = [];
    emitter.on('warning', (w) => warnings.push(w));
    const ft = toFunctionTool(
      weatherTool({
        execute: (_args, context) => {
          context.emitter.emit('warning', {
            threadId: context.threadId,
            code: 'STALE',
            message: 'cached',
          });
          return context.threadId;
        },
      }),
      {
        name: 'weather_v2',
        emitter,
        thread: (rc) => ({
          threadId: `agent-run-${String((rc?.context as { run?: number } | undefined)?.run)}`,
          variables: {},
        }),
      },
    );
    expect(ft.name).toBe('weather_v2');
    expect(await invoke(ft, { city: 'x' }, { run: 3 })).toBe('agent-run-3');
    expect(warnings).toEqual([{ threadId: 'agent-run-3', code: 'STALE', message: 'cached' }]);
  });

  it('maps needsApproval (static and per call) and isEnabled onto the FunctionTool', async () => {
    const agent = new Agent({ name: 'probe' });
    const rc = (context: object) => new RunContext(context) as RunContext<never>;
    const always = toFunctionTool(weatherTool({ needsApproval: true }));
    expect(await always.needsApproval(rc({}), { city: 'x' } as never)).toBe(true);
    const never = toFunctionTool(weatherTool());
    expect(await never.needsApproval(rc({}), { city: 'x' } as never)).toBe(false);
    const perCity = toFunctionTool(
      weatherTool({
        needsApproval: (args: Record<string, unknown>, thread) =>
          args.city === thread.variables.restricted,
        isEnabled: (thread) => thread.variables.plan === 'pro',
      }),
    );
    expect(
      await perCity.needsApproval(rc({ restricted: 'Pyongyang' }), { city: 'Pyongyang' } as never),
    ).toBe(true);
    expect(
      await perCity.needsApproval(rc({ restricted: 'Pyongyang' }), { city: 'Oslo' } as never),
    ).toBe(false);
    expect(await perCity.isEnabled(rc({ plan: 'pro' }), agent)).toBe(true);
    expect(await perCity.isEnabled(rc({ plan: 'free' }), agent)).toBe(false);
  });

  it('a strict tool with a strict-ready schema keeps it unchanged', () => {
    const strictSchema = {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    };
    const ft = toFunctionTool(weatherTool({ parameters: strictSchema, strict: true }));
    expect(ft.strict).toBe(true);
    expect(ft.parameters).toEqual(strictSchema);
  });

  it('refuses names OpenAI cannot take and malformed tools', () => {
    expect(() => toFunctionTool(weatherTool({ name: 'weather.get' }))).toThrowError(
      ToolConversionError,
    );
    expect(() => toFunctionTool(weatherTool({ name: 'weather.get' }))).toThrowError(
      /pass \{ name \}/,
    );
    expect(toFunctionTool(weatherTool({ name: 'weather.get' }), { name: 'weather_get' }).name).toBe(
      'weather_get',
    );
    expect(() => toFunctionTool(weatherTool({ name: 'x'.repeat(65) }))).toThrowError(
      /not a valid OpenAI function name/,
    );
    expect(() => toFunctionTool(weatherTool({ parameters: null as never }))).toThrowError(
      /JSON Schema object/,
    );
    expect(() => toFunctionTool(weatherTool({ execute: undefined as never }))).toThrowError(
      /execute/,
    );
  });
});

describe('toFunctionTool inside an OpenAI Agents SDK run', () => {
  const callWeather = [
    {
      type: 'function_call' as const,
      callId: 'fc-1',
      name: 'get-weather',
      arguments: '{"city":"Oslo"}',
      status: 'completed' as const,
    },
  ];
  const answer = [
    {
      type: 'message' as const,
      role: 'assistant' as const,
      status: 'completed' as const,
      content: [{ type: 'output_text' as const, text: 'It is mild in Oslo.' }],
    },
  ];

  it('the agent calls the Skein tool and the model reads its result', async () => {
    const model = new ScriptedModel([callWeather, answer]);
    const agent = new Agent({ name: 'forecaster', model, tools: [toFunctionTool(weatherTool())] });
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'Weather in Oslo?');
    expect(result.finalOutput).toBe('It is mild in Oslo.');
    expect(model.requests[0]?.tools).toEqual([
      expect.objectContaining({ type: 'function', name: 'get-weather', parameters: weatherSchema }),
    ]);
    const input = model.requests[1]?.input as { type: string; output?: unknown }[];
    expect(input.at(-1)).toMatchObject({
      type: 'function_call_result',
      callId: 'fc-1',
      output: { type: 'text', text: 'Oslo 12C (thread openai-agents, call fc-1)' },
    });
  });

  it('a Skein tool that needs approval interrupts the agent run', async () => {
    const model = new ScriptedModel([callWeather, answer]);
    const agent = new Agent({
      name: 'forecaster',
      model,
      tools: [toFunctionTool(weatherTool({ needsApproval: true }))],
    });
    const result = await new Runner({ tracingDisabled: true }).run(agent, 'Weather in Oslo?');
    expect(result.interruptions.map((i) => i.rawItem)).toEqual([
      expect.objectContaining({ type: 'function_call', name: 'get-weather' }),
    ]);
    expect(model.requests).toHaveLength(1);
  });
});

describe('round trip Skein -> FunctionTool -> Skein', () => {
  const thread = { threadId: 'thread-rt', variables: { plan: 'pro', restricted: 'Mordor' } };

  it('keeps name, description, schema and strictness', () => {
    const original = weatherTool();
    const back = fromFunctionTool(toFunctionTool(original));
    expect(back.name).toBe(original.name);
    expect(back.description).toBe(original.description);
    expect(back.parameters).toEqual(original.parameters);
    expect(Boolean(back.strict)).toBe(Boolean(original.strict));
    const strict = weatherTool({
      strict: true,
      parameters: { ...weatherSchema, required: ['city', 'unit'], additionalProperties: false },
    });
    const strictBack = fromFunctionTool(toFunctionTool(strict));
    expect(strictBack.parameters).toEqual(strict.parameters);
    expect(strictBack.strict).toBe(true);
  });

  it('keeps behaviour: results, the full execution context, errors, ToolOutputs, timeout', async () => {
    const contexts: ToolExecutionContext[] = [];
    const original = weatherTool({
      timeoutMs: 1_500,
      execute: (args: Record<string, unknown>, context: ToolExecutionContext) => {
        contexts.push(context);
        if (args.city === 'Atlantis') throw new RangeError('no such city: Atlantis');
        if (args.city === 'Nowhere')
          return toolOutput({ content: 'unknown city', isError: true, data: { code: 404 } });
        return { city: args.city, celsius: 12 };
      },
    });
    const back = fromFunctionTool(toFunctionTool(original));
    const context = toolContext({
      threadId: 'thread-rt',
      toolCallId: 'call-rt',
      variables: { user: 'ada' },
    });

    expect(await back.execute({ city: 'Oslo' }, context)).toEqual(
      await original.execute({ city: 'Oslo' }, context),
    );
    expect(contexts[0]).toMatchObject({
      threadId: 'thread-rt',
      nodeId: 'llm-1',
      toolCallId: 'call-rt',
    });
    expect(contexts[0]?.variables).toBe(context.variables);
    expect(contexts[0]?.emitter).toBe(context.emitter);

    await expect(back.execute({ city: 'Atlantis' }, context)).rejects.toThrowError(RangeError);
    await expect(back.execute({ city: 'Atlantis' }, context)).rejects.toThrow(
      'no such city: Atlantis',
    );

    const output = (await back.execute({ city: 'Nowhere' }, context)) as ToolOutput;
    expect(isToolOutput(output)).toBe(true);
    expect(output).toMatchObject({ content: 'unknown city', isError: true, data: { code: 404 } });
    expect(back.timeoutMs).toBe(1_500);
  });

  it('keeps the approval and enablement decisions, thread by thread', async () => {
    const original = weatherTool({
      needsApproval: (args: Record<string, unknown>, t) => args.city === t.variables.restricted,
      isEnabled: (t) => t.variables.plan === 'pro' && t.threadId.startsWith('thread-'),
    });
    const back = fromFunctionTool(toFunctionTool(original));
    const ask = back.needsApproval as (a: object, t: typeof thread) => Promise<boolean>;
    expect(await ask({ city: 'Mordor' }, thread)).toBe(true);
    expect(await ask({ city: 'Shire' }, thread)).toBe(false);
    expect(await back.isEnabled?.(thread)).toBe(true);
    expect(await back.isEnabled?.({ ...thread, threadId: 'other' })).toBe(false);
    expect(await back.isEnabled?.({ ...thread, variables: { plan: 'free' } })).toBe(false);
  });
});
