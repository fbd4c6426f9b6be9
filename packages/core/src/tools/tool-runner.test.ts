import type { ToolCall } from '@skein/spec';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SkeinEmitter } from '../events/emitter.js';
import { ArgumentValidator } from './argument-validator.js';
import type { Tool } from './tool.js';
import { ToolRunner } from './tool-runner.js';

const runner = () =>
  new ToolRunner({ validator: new ArgumentValidator(), emitter: new SkeinEmitter() });

function contextFor(...tools: Tool[]) {
  return {
    threadId: 't',
    nodeId: 'n',
    signal: new AbortController().signal,
    variables: {},
    tools: new Map(tools.map((t) => [t.name, t])),
  };
}

const call = (name: string): ToolCall => ({ id: `call-${name}`, name, arguments: '{}' });

const hangs = (signal: AbortSignal) =>
  new Promise<string>((_, reject) =>
    signal.addEventListener('abort', () => reject(signal.reason), { once: true }),
  );

afterEach(() => {
  vi.useRealTimers();
});

describe('ToolRunner time limits', () => {
  it('refuses a timeoutMs Node would fire after 1 ms (2^31, -1, NaN) without running the tool', async () => {
    for (const timeoutMs of [2 ** 31, -1, Number.NaN]) {
      let ran = false;
      const tool: Tool = {
        name: 'dynamic',
        description: 'never registered',
        parameters: { type: 'object' },
        timeoutMs,
        execute: () => {
          ran = true;
          return 'ran';
        },
      };
      const result = await runner().run(call('dynamic'), contextFor(tool));
      expect(result.errorCode, String(timeoutMs)).toBe('INVALID_TOOL');
      expect(result.message.content).toMatch(/timeoutMs must be a number from 1 to 2147483647/);
      expect(ran).toBe(false);
    }
  });

  it('refuses a defaultTimeoutMs outside 1..2^31-1 with a typed error', () => {
    for (const defaultTimeoutMs of [0, 2 ** 31, Number.NaN])
      expect(
        () =>
          new ToolRunner({
            validator: new ArgumentValidator(),
            emitter: new SkeinEmitter(),
            defaultTimeoutMs,
          }),
      ).toThrow(
        expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'defaultTimeoutMs' }),
      );
  });

  it('a tool that owns its timeout answers in its own words at the same limit', async () => {
    const tool: Tool = {
      name: 'own',
      description: 'keeps its own clock',
      parameters: { type: 'object' },
      timeoutMs: 20,
      ownsTimeout: true,
      execute: (_args, { signal }) =>
        Promise.race([
          hangs(signal),
          new Promise<string>((resolve) => setTimeout(() => resolve('I gave up politely'), 20)),
        ]),
    };
    const result = await runner().run(call('own'), contextFor(tool));
    expect(result).toMatchObject({ isError: false, message: { content: 'I gave up politely' } });
  });

  it('a tool that owns its timeout but never settles is stopped one second later', async () => {
    vi.useFakeTimers();
    const tool: Tool = {
      name: 'liar',
      description: 'claims a timeout it does not keep',
      parameters: { type: 'object' },
      timeoutMs: 20,
      ownsTimeout: true,
      execute: () => new Promise<string>(() => {}),
    };
    let settled = false;
    const pending = runner()
      .run(call('liar'), contextFor(tool))
      .finally(() => {
        settled = true;
      });
    await vi.advanceTimersByTimeAsync(1_019);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await pending;
    expect(result.errorCode).toBe('TOOL_TIMEOUT');
    expect(result.message.content).toBe(
      'Error [TOOL_TIMEOUT]: Tool "liar" did not finish within 20 ms',
    );
  });
});

describe('ToolRunner plain results', () => {
  const returning = (value: unknown): Tool => ({
    name: 'plain',
    description: 'returns a plain value',
    parameters: { type: 'object' },
    execute: () => value,
  });

  it('sends a JSON value as its JSON text', async () => {
    const result = await runner().run(call('plain'), contextFor(returning({ a: [1, 'b'] })));
    expect(result.isError).toBe(false);
    expect(result.message.content).toBe('{"a":[1,"b"]}');
  });

  it.each([
    ['a nested BigInt', { total: { cents: 12n } }, 'total.cents is a BigInt'],
    ['NaN', { score: Number.NaN }, 'score is NaN'],
    ['a Date', { at: new Date(0) }, 'at is an instance of Date'],
  ])(
    'refuses %s with TOOL_RESULT_NOT_JSON, not "[object Object]" or null',
    async (_, value, where) => {
      const result = await runner().run(call('plain'), contextFor(returning(value)));
      expect(result.isError).toBe(true);
      expect(result.errorCode).toBe('TOOL_RESULT_NOT_JSON');
      expect(result.message.content).toContain(
        `the result of "plain" could not be stored: result.${where}`,
      );
    },
  );
});
