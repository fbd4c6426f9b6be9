import type { LLMRequest } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { ScriptError } from './errors/script-error.js';
import { ScriptedLLMClient } from './scripted-llm-client.js';
import type { ScriptStep } from './types.js';

function request(...contents: string[]): LLMRequest {
  return {
    messages: contents.map((content, i) => ({ role: i % 2 ? 'tool' : 'user', content })),
    tools: [],
  } as unknown as LLMRequest;
}

function refusal(script: unknown): ScriptError {
  try {
    // Deliberately unchecked: a JavaScript caller can pass anything.
    new ScriptedLLMClient(script as ScriptStep[]);
  } catch (error) {
    if (ScriptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('ScriptedLLMClient script checks', () => {
  it('refuses an unknown field at construction, naming it and listing the accepted ones', () => {
    const error = refusal([{ content: 'a' }, { text: 'x' }]);
    expect(error.code).toBe('SCRIPT_INVALID');
    expect(error.field).toBe('script[1].text');
    expect(error.accepted).toEqual(
      expect.arrayContaining(['content', 'toolCalls', 'usage', 'finishReason']),
    );
    expect(error.message).toContain('script[1].text');
    expect(error.message).toContain('accepted: content, toolCalls');
  });

  it.each([
    [[{ content: 1 }], 'script[0].content'],
    [[{ toolCalls: [{ name: 't', arguments: 5 }] }], 'script[0].toolCalls[0].arguments'],
    [[{ toolCalls: [{ arguments: '{}' }] }], 'script[0].toolCalls[0].name'],
    [[{ finishReason: 'done' }], 'script[0].finishReason'],
    [[{ usage: { promptTokens: 1 } }], 'script[0].usage.completionTokens'],
  ])('refuses %j at %s', (script, field) => {
    const error = refusal(script);
    expect(error.code).toBe('SCRIPT_INVALID');
    expect(error.field).toBe(field);
  });

  it('checks what a script function returns when it is called', async () => {
    const llm = new ScriptedLLMClient(() => ({ contnet: 'x' }) as never);
    await expect(llm.generate(request('hi'))).rejects.toMatchObject({
      code: 'SCRIPT_INVALID',
      field: 'script(call 1).contnet',
    });
  });

  it('takes usage without totalTokens, as the server does', async () => {
    const llm = new ScriptedLLMClient([
      { content: 'a', usage: { promptTokens: 2, completionTokens: 3 } },
    ]);
    expect((await llm.generate(request('hi'))).usage).toEqual({
      promptTokens: 2,
      completionTokens: 3,
      totalTokens: 5,
    });
  });

  it('names the call and the last message sent when the script runs out', async () => {
    const llm = new ScriptedLLMClient([{ content: 'one' }]);
    await llm.generate(request('hi'));
    const long = `Why? ${'x'.repeat(300)}`;
    const error: unknown = await llm.generate(request('hi', long)).catch((e: unknown) => e);
    expect(ScriptError.isInstance(error)).toBe(true);
    const exhausted = error as ScriptError;
    expect(exhausted.code).toBe('SCRIPT_EXHAUSTED');
    expect(exhausted.call).toBe(2);
    expect(exhausted.message).toContain('turn 2');
    expect(exhausted.message).toContain(`tool: "${long.slice(0, 200)}"`);
    expect(exhausted.message).not.toContain(long.slice(0, 201));
  });
});
