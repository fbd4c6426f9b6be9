import { tool } from '@openai/agents-core';
import { SkeinEngine, type Tool, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { contentText } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fromFunctionTool } from './from-function-tool.js';
import { toFunctionTool } from './to-function-tool.js';

// A FunctionTool's own timeout decides what the model reads, through the engine exactly as when
// the SDK runs it: the engine's timer for the same limit must not fire first.

const hangsUntilAborted = (signal: AbortSignal | undefined) =>
  new Promise<string>((_, reject) => {
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });

async function toolMessages(skeinTool: Tool): Promise<string[]> {
  const llm = new ScriptedLLMClient([
    { toolCalls: [{ name: skeinTool.name, arguments: {} }] },
    { content: 'done' },
  ]);
  const engine = new SkeinEngine({ llm });
  engine.registerTool(skeinTool);
  engine.registerWorkflow(
    new WorkflowBuilder('timeout', '1')
      .initialTools([skeinTool.name])
      .start()
      .llm('agent')
      .end('end')
      .chain('start', 'agent', 'end')
      .build(),
  );
  const { result } = await engine.run('timeout', { input: 'go' });
  expect(result.status).toBe('COMPLETED');
  return llm.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) =>
    contentText(m.content),
  );
}

describe('a FunctionTool timeout through the engine', () => {
  it("the model reads the SDK's default timeout message", async () => {
    const slow = tool({
      name: 'slow',
      description: 'Never answers',
      parameters: z.object({}),
      timeoutMs: 30,
      execute: (_args, _ctx, details) => hangsUntilAborted(details?.signal),
    });
    const converted = fromFunctionTool(slow);
    expect(converted).toMatchObject({ timeoutMs: 30, ownsTimeout: true });
    expect(await toolMessages(converted)).toEqual(["Tool 'slow' timed out after 30ms."]);
  });

  it("the model reads the tool's timeoutErrorFunction text", async () => {
    const slow = tool({
      name: 'slow',
      description: 'Never answers',
      parameters: z.object({}),
      timeoutMs: 30,
      timeoutErrorFunction: (_ctx, error) => `gave up after ${error.timeoutMs} ms, try later`,
      execute: (_args, _ctx, details) => hangsUntilAborted(details?.signal),
    });
    expect(await toolMessages(fromFunctionTool(slow))).toEqual(['gave up after 30 ms, try later']);
  });

  it("timeoutBehavior 'raise_exception' keeps the SDK's words under the TOOL_TIMEOUT code", async () => {
    const slow = tool({
      name: 'slow',
      description: 'Never answers',
      parameters: z.object({}),
      timeoutMs: 30,
      timeoutBehavior: 'raise_exception',
      execute: (_args, _ctx, details) => hangsUntilAborted(details?.signal),
    });
    expect(await toolMessages(fromFunctionTool(slow))).toEqual([
      "Error [TOOL_TIMEOUT]: Tool 'slow' timed out after 30ms.",
    ]);
  });

  it('a Skein tool round-tripped through a FunctionTool times out as the original does', async () => {
    const original: Tool = {
      name: 'slow',
      description: 'Never answers',
      parameters: { type: 'object', properties: {} },
      timeoutMs: 30,
      execute: (_args, context) => hangsUntilAborted(context.signal),
    };
    const expected = await toolMessages(original);
    expect(expected).toEqual(['Error [TOOL_TIMEOUT]: Tool "slow" did not finish within 30 ms']);
    expect(await toolMessages(fromFunctionTool(toFunctionTool(original)))).toEqual(expected);
  });
});
