import { isToolDescription } from '@skein/conversation';
import type { LLMMessage } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { Tool } from '../tools/tool.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import { SkeinEngine } from './skein-engine.js';

// The scenario the seed design was written for: START -> LLM (two initial tools) -> CLEAR ->
// LLM -> END. The second model request must hold exactly one tool description naming both
// initial tools, and a dynamic tool added in between is offered but not described.

const calculator: Tool<{ expression: string }> = {
  name: 'calculator',
  description: 'Evaluates + and * of integers',
  parameters: {
    type: 'object',
    properties: { expression: { type: 'string' } },
    required: ['expression'],
  },
  execute: ({ expression }) =>
    String(
      expression
        .split('+')
        .reduce((sum, term) => sum + term.split('*').reduce((p, f) => p * Number(f), 1), 0),
    ),
};
const clock: Tool = {
  name: 'clock',
  description: 'Tells the time',
  parameters: { type: 'object', properties: {} },
  execute: () => '12:00',
};
const weather: Tool = {
  name: 'weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } } },
  execute: () => 'sunny',
};

function descriptions(messages: readonly LLMMessage[]) {
  return messages.filter(isToolDescription);
}

function scenario(clears: { keepSystemMessage: boolean }[]) {
  const builder = new WorkflowBuilder('seed', '1')
    .initialTools(['calculator', 'clock'])
    .start()
    .llm('phase1', { systemPrompt: 'You are a careful assistant.', prompt: 'What is 6*7?' })
    .llm('phase2', { prompt: 'And what time is it?' })
    .end('end', { output: 'nodes.phase2' });
  const ids = ['start', 'phase1'];
  clears.forEach((clear, i) => {
    builder.contextProcessor(`clear${i}`, [
      { type: 'CLEAR', keepSystemMessage: clear.keepSystemMessage },
    ]);
    ids.push(`clear${i}`);
  });
  builder.chain(...ids, 'phase2', 'end');
  return builder.build();
}

async function runScenario(clears: { keepSystemMessage: boolean }[]) {
  const llm = new ScriptedLLMClient([
    { toolCalls: [{ name: 'calculator', arguments: { expression: '6*7' } }] },
    { content: '42' },
    { toolCalls: [{ name: 'clock', arguments: {} }] },
    { content: 'It is noon.' },
  ]);
  const engine = new SkeinEngine({ llm });
  engine.registerTools([calculator, clock, weather]);
  engine.registerWorkflow(scenario(clears));
  const thread = engine.createThread('seed');
  // A dynamic tool added mid-run (after phase one).
  engine.events.on('node:completed', (e) => {
    if (e.nodeId === 'phase1') thread.addDynamicTools([weather]);
  });
  const { result } = await engine.run(thread);
  return { llm, thread, result };
}

describe('the seed scenario', () => {
  it('keepSystemMessage: false — phase two sees the description exactly once', async () => {
    const { llm, result, thread } = await runScenario([{ keepSystemMessage: false }]);
    expect(result.status).toBe('COMPLETED');
    expect(result.output).toBe('It is noon.');
    const secondPhase = llm.requests[2]!;
    const shown = descriptions(secondPhase.messages);
    expect(shown).toHaveLength(1);
    expect(shown[0]!.content).toContain('calculator');
    expect(shown[0]!.content).toContain('clock');
    expect(shown[0]!.content).not.toContain('weather');
    // The system prompt was dropped; the conversation restarted from the description.
    expect(secondPhase.messages.map((m) => m.role)).toEqual(['system', 'user']);
    // The dynamic tool is offered as a tool but not described.
    expect(secondPhase.tools.map((t) => t.name)).toEqual(['calculator', 'clock', 'weather']);
    expect(llm.requests[0]!.tools.map((t) => t.name)).toEqual(['calculator', 'clock']);
    // Nothing stored was lost.
    expect(thread.conversation.getAllMessages().some((m) => m.content === 'What is 6*7?')).toBe(
      true,
    );
  });

  it('keepSystemMessage: true — the system prompt stays, the description once', async () => {
    const { llm } = await runScenario([{ keepSystemMessage: true }]);
    const messages = llm.requests[2]!.messages;
    expect(descriptions(messages)).toHaveLength(1);
    // Kept system messages first, then the description (DESIGN: "kept system messages, then the
    // tool description"), then the new conversation.
    expect(messages.map((m) => m.content)).toEqual([
      'You are a careful assistant.',
      'Available tools:\n- calculator: Evaluates + and * of integers\n- clock: Tells the time',
      'And what time is it?',
    ]);
  });

  it('several clears in a row never duplicate the description', async () => {
    const { llm, thread } = await runScenario([
      { keepSystemMessage: true },
      { keepSystemMessage: false },
      { keepSystemMessage: true },
      { keepSystemMessage: true },
    ]);
    for (const request of llm.requests) expect(descriptions(request.messages)).toHaveLength(1);
    expect(thread.conversation.currentBatch).toBe(4);
  });

  it('the first request already holds the description, from the builder', async () => {
    const { llm, result } = await runScenario([{ keepSystemMessage: false }]);
    expect(result.status).toBe('COMPLETED');
    const first = llm.requests[0]!.messages;
    expect(descriptions(first)).toHaveLength(1);
    expect(first[0]!.metadata?.kind).toBe('tool-description');
    // The tool result reached the model in round two.
    expect(llm.requests[1]!.messages.at(-1)).toMatchObject({
      role: 'tool',
      content: '42',
      name: 'calculator',
    });
  });
});
