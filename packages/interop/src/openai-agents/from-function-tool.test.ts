import { Agent, type RunContext, tool } from '@openai/agents';
import { tool as coreTool, hostedMcpTool } from '@openai/agents-core';
import { isToolOutput, type ToolOutput } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolConversionError } from '../errors/tool-conversion-error.js';
import { toolContext } from '../test-support/tool-context.js';
import { fromFunctionTool } from './from-function-tool.js';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

const thread = (threadId: string, variables: Record<string, unknown> = {}) => ({
  threadId,
  variables,
});

describe('fromFunctionTool: a zod-defined FunctionTool', () => {
  const seen: { context: unknown; callId: string | undefined }[] = [];
  const multiply = tool({
    name: 'multiply',
    description: 'Multiplies two numbers',
    parameters: z.object({ a: z.number(), b: z.number().optional() }),
    execute: ({ a, b }, runContext?: RunContext<unknown>, details?) => {
      seen.push({ context: runContext?.context, callId: details?.toolCall?.callId });
      return `product=${a * (b ?? 1)}`;
    },
  });

  it('keeps name, description, the JSON Schema the SDK derived, strict and a source', () => {
    const converted = fromFunctionTool(multiply);
    expect(converted.name).toBe('multiply');
    expect(converted.description).toBe('Multiplies two numbers');
    expect(converted.parameters).toEqual(multiply.parameters);
    expect(converted.parameters).not.toBe(multiply.parameters);
    expect(converted.parameters).toMatchObject({
      type: 'object',
      properties: { a: { type: 'number' } },
      required: ['a', 'b'],
      additionalProperties: false,
    });
    expect(converted.strict).toBe(true);
    expect(converted.source).toBe('openai-agents');
  });

  it('runs through the SDK invoke path: arguments, run context = thread variables, call id', async () => {
    const converted = fromFunctionTool(multiply);
    const result = await converted.execute(
      { a: 6, b: 7 },
      toolContext({ toolCallId: 'call-42', variables: { user: 'ada' } }),
    );
    expect(result).toBe('product=42');
    expect(seen.at(-1)).toEqual({ context: { user: 'ada' }, callId: 'call-42' });
    // Strict mode: an optional field the model sends as null is stripped before zod parses it.
    expect(await converted.execute({ a: 5, b: null }, toolContext())).toBe('product=5');
  });

  it('bad arguments reach the model as the SDK error text, not as a throw', async () => {
    const converted = fromFunctionTool(multiply);
    const result = await converted.execute({ a: 'six' }, toolContext());
    expect(typeof result).toBe('string');
    expect(result).toContain('Invalid JSON input for tool');
  });

  it('a custom `context` option builds what the tool sees as runContext.context', async () => {
    const converted = fromFunctionTool(multiply, {
      context: (t) => ({ thread: t.threadId, user: t.variables.user }),
      source: 'agents:math',
    });
    await converted.execute(
      { a: 1, b: 1 },
      toolContext({ threadId: 't-9', variables: { user: 'bob' } }),
    );
    expect(seen.at(-1)?.context).toEqual({ thread: 't-9', user: 'bob' });
    expect(converted.source).toBe('agents:math');
  });
});

describe('fromFunctionTool: a JSON-Schema FunctionTool (non-strict)', () => {
  const lookup = coreTool({
    name: 'lookup',
    description: 'Looks a key up',
    strict: false,
    parameters: {
      type: 'object',
      properties: { key: { type: 'string' }, limit: { type: 'integer' } },
      required: ['key'],
      additionalProperties: true,
    } as const,
    execute: async (input) => ({ found: true, input }),
    timeoutMs: 2_000,
  });

  it('keeps the schema exactly, strict false, the timeout, and returns JSON values as they are', async () => {
    const converted = fromFunctionTool(lookup);
    expect(converted.parameters).toEqual(lookup.parameters);
    expect(converted.strict).toBe(false);
    expect(converted.timeoutMs).toBe(2_000);
    expect(await converted.execute({ key: 'k' }, toolContext())).toEqual({
      found: true,
      input: { key: 'k' },
    });
  });
});

describe('fromFunctionTool: errors', () => {
  const failing = (errorFunction?: ((rc: RunContext<unknown>, error: unknown) => string) | null) =>
    tool({
      name: 'flaky',
      description: 'Fails',
      parameters: z.object({}),
      execute: () => {
        throw new Error('disk full');
      },
      ...(errorFunction === undefined ? {} : { errorFunction }),
    });

  it('an error the tool turns into text (errorFunction) reaches the model as that text', async () => {
    const converted = fromFunctionTool(
      failing((_rc, error) => `Could not save: ${(error as Error).message}. Try a smaller file.`),
    );
    expect(await converted.execute({}, toolContext())).toBe(
      'Could not save: disk full. Try a smaller file.',
    );
  });

  it("the SDK's default errorFunction text is kept too", async () => {
    const result = await fromFunctionTool(failing()).execute({}, toolContext());
    expect(result).toMatch(/An error occurred while running the tool.*disk full/);
  });

  it('errorFunction: null makes the call throw the original error (the engine reports it)', async () => {
    await expect(fromFunctionTool(failing(null)).execute({}, toolContext())).rejects.toThrow(
      'disk full',
    );
  });

  it('an aborted call rejects instead of being turned into text', async () => {
    const controller = new AbortController();
    const slow = tool({
      name: 'slow',
      description: 'Waits for abort',
      parameters: z.object({}),
      execute: (_input, _rc, details) =>
        new Promise((_resolve, reject) => {
          details?.signal?.addEventListener('abort', () => reject(details.signal?.reason));
        }),
    });
    const running = fromFunctionTool(slow).execute({}, toolContext({ signal: controller.signal }));
    controller.abort(new Error('thread cancelled'));
    await expect(running).rejects.toThrow('thread cancelled');
  });
});

describe('fromFunctionTool: isEnabled per thread', () => {
  it('asks the predicate with each thread’s own run context', async () => {
    const premium = tool({
      name: 'premium_search',
      description: 'Only for premium users',
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => `results for ${q}`,
      isEnabled: ({ runContext }) => (runContext.context as { plan?: string }).plan === 'premium',
    });
    const converted = fromFunctionTool(premium);
    expect(await converted.isEnabled?.(thread('t-1', { plan: 'premium' }))).toBe(true);
    expect(await converted.isEnabled?.(thread('t-2', { plan: 'free' }))).toBe(false);
  });

  it('a statically disabled tool is disabled in every thread; an enabled one everywhere', async () => {
    const off = fromFunctionTool(
      tool({
        name: 'off',
        description: '',
        parameters: z.object({}),
        execute: () => '',
        isEnabled: false,
      }),
    );
    const on = fromFunctionTool(
      tool({ name: 'on', description: '', parameters: z.object({}), execute: () => '' }),
    );
    expect(await off.isEnabled?.(thread('a'))).toBe(false);
    expect(await on.isEnabled?.(thread('a'))).toBe(true);
  });

  it('hands predicates the given agent (or one named skein)', async () => {
    const agents: string[] = [];
    const probe = tool({
      name: 'probe',
      description: '',
      parameters: z.object({}),
      execute: () => '',
      isEnabled: ({ agent }) => {
        agents.push(agent.name);
        return true;
      },
    });
    await fromFunctionTool(probe).isEnabled?.(thread('a'));
    await fromFunctionTool(probe, { agent: new Agent({ name: 'support' }) }).isEnabled?.(
      thread('a'),
    );
    expect(agents).toEqual(['skein', 'support']);
  });
});

describe('fromFunctionTool: needsApproval', () => {
  it('maps a static approval requirement and leaves other tools ungated', async () => {
    const gated = fromFunctionTool(
      tool({
        name: 'delete_all',
        description: '',
        parameters: z.object({}),
        execute: () => 'deleted',
        needsApproval: true,
      }),
    );
    const free = fromFunctionTool(
      tool({ name: 'read', description: '', parameters: z.object({}), execute: () => '' }),
    );
    expect(typeof gated.needsApproval).toBe('function');
    const ask = gated.needsApproval as (a: object, t: object) => Promise<boolean>;
    expect(await ask({}, thread('a'))).toBe(true);
    expect(
      await (free.needsApproval as (a: object, t: object) => Promise<boolean>)({}, thread('a')),
    ).toBe(false);
    // Approval is the engine's to ask; once approved, execute runs the tool.
    expect(await gated.execute({}, toolContext())).toBe('deleted');
  });

  it('a policy of the arguments and thread decides per call', async () => {
    const transfer = fromFunctionTool(
      tool({
        name: 'transfer',
        description: 'Moves money',
        parameters: z.object({ amount: z.number() }),
        execute: ({ amount }) => `moved ${amount}`,
        needsApproval: async (runContext, { amount }) =>
          amount > ((runContext.context as { limit: number }).limit ?? 0),
      }),
    );
    const ask = transfer.needsApproval as (a: object, t: object) => Promise<boolean>;
    expect(await ask({ amount: 50 }, thread('a', { limit: 100 }))).toBe(false);
    expect(await ask({ amount: 500 }, thread('a', { limit: 100 }))).toBe(true);
  });
});

describe('fromFunctionTool: outputs and bad input', () => {
  it('structured text parts are joined, an image is an image part and not data', async () => {
    const image = { type: 'image' as const, image: `data:image/png;base64,${PNG}` };
    const chart = tool({
      name: 'chart',
      description: '',
      parameters: z.object({}),
      execute: async () => [{ type: 'text' as const, text: 'Sales went up.' }, image],
    });
    const result = (await fromFunctionTool(chart).execute({}, toolContext())) as ToolOutput;
    expect(isToolOutput(result)).toBe(true);
    expect(result.content).toBe('Sales went up.');
    expect(result.parts).toEqual([
      { type: 'text', text: 'Sales went up.' },
      { type: 'image', mediaType: 'image/png', url: `data:image/png;base64,${PNG}` },
    ]);
    expect(result.isError).toBe(false);
    expect(result.data).toBeUndefined();
  });

  it('maps ToolOutputImage and ToolOutputFileContent sources to parts; file ids and bad bytes to notes', async () => {
    const bytes = Buffer.from(PNG, 'base64');
    const pdf = Buffer.from('%PDF-1.4 tiny').toString('base64');
    const outputs = tool({
      name: 'outputs',
      description: '',
      parameters: z.object({}),
      execute: async () => [
        { type: 'image' as const, image: { data: new Uint8Array(bytes) } },
        { type: 'image' as const, image: { url: 'https://example.com/cat.png' } },
        { type: 'image' as const, image: { fileId: 'file-123' } },
        { type: 'image' as const, image: { data: 'AAAA', mediaType: 'image/png' } },
        {
          type: 'file' as const,
          file: { data: pdf, mediaType: 'application/pdf', filename: 'q3.pdf' },
        },
        { type: 'file' as const, file: { url: 'https://example.com/a.csv', filename: 'a.csv' } },
      ],
    });
    const result = (await fromFunctionTool(outputs).execute({}, toolContext())) as ToolOutput;
    expect(result.content).toMatch(/^\[image file-123\]\n\[image\] \(not kept: .+\)$/);
    expect(result.parts?.slice(1)).toEqual([
      { type: 'image', mediaType: 'image/png', data: new Uint8Array(bytes) },
      { type: 'image', mediaType: 'image/*', url: 'https://example.com/cat.png' },
      { type: 'file', mediaType: 'application/pdf', filename: 'q3.pdf', data: pdf },
      {
        type: 'file',
        mediaType: 'application/octet-stream',
        filename: 'a.csv',
        url: 'https://example.com/a.csv',
      },
    ]);
    // Only the outputs that became notes stay in data: the file id, and the bytes not kept.
    expect(result.data).toEqual({
      parts: [
        { type: 'image', image: { fileId: 'file-123' } },
        { type: 'image', image: { data: 'AAAA', mediaType: 'image/png' } },
      ],
    });
  });

  it('refuses tools that do not run locally and things that are not tools', () => {
    const hosted = hostedMcpTool({ serverLabel: 'docs', serverUrl: 'https://example.invalid/mcp' });
    expect(() => fromFunctionTool(hosted as never)).toThrowError(ToolConversionError);
    expect(() => fromFunctionTool(hosted as never)).toThrowError(
      /only function tools run locally.*hosted_tool/,
    );
    expect(() => fromFunctionTool(null as never)).toThrowError(
      expect.objectContaining({ code: 'TOOL_CONVERSION_FAILED' }),
    );
    expect(() =>
      fromFunctionTool({ type: 'function', name: 'x', invoke: 'no' } as never),
    ).toThrowError(/invoke must be a function/);
  });
});
