import { InMemoryCheckpointStore, SkeinEngine, type Tool, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient, type ScriptedStep } from '@skein/testkit';

export const MODEL = 'scripted-travel';

const calculator: Tool<{ expression: string }> = {
  name: 'calculator',
  description: 'Multiplies two numbers written as "a * b"',
  parameters: {
    type: 'object',
    properties: { expression: { type: 'string' } },
    required: ['expression'],
    additionalProperties: false,
  },
  execute: ({ expression }) => {
    const [x, y] = expression.split('*').map(Number);
    return String(x! * y!);
  },
};

const lookup: Tool<{ city: string }> = {
  name: 'lookup_destination',
  description: 'Looks up a destination',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  execute: ({ city }) => JSON.stringify({ city, dailyCostEur: 95 }),
};

/** The first round of the plan: two tool calls; the second: the plan. */
const travelScript: ScriptedStep[] = [
  {
    toolCalls: [
      { id: 'call_calc', name: 'calculator', arguments: { expression: '4 * 95' } },
      { id: 'call_look', name: 'lookup_destination', arguments: { city: 'Lisbon' } },
    ],
    usage: { promptTokens: 40, completionTokens: 12 },
  },
  { content: 'Four days in Lisbon: 380 EUR.', usage: { promptTokens: 90, completionTokens: 9 } },
];

/**
 * Like apps/example's travel assistant, smaller: an LLM node that plans with tools, a question
 * to the traveller (the thread pauses there), then the booking.
 */
export function travelEngine(
  script: ScriptedStep[] = travelScript,
  extraTools: Tool<never>[] = [],
): SkeinEngine {
  const engine = new SkeinEngine({
    llm: new ScriptedLLMClient(script),
    store: new InMemoryCheckpointStore(),
  });
  engine.registerTool(calculator);
  engine.registerTool(lookup);
  for (const tool of extraTools) engine.registerTool(tool);
  engine.registerWorkflow(
    new WorkflowBuilder('travel', '1.0.0')
      .initialTools(['calculator', 'lookup_destination', ...extraTools.map((t) => t.name)])
      .start('start')
      .llm('plan', {
        model: MODEL,
        systemPrompt: 'You are a travel assistant.',
        prompt: 'Plan four days in Lisbon.',
        outputVariable: 'plan',
      })
      .userInteraction('confirm', { prompt: 'Book it?', variable: 'answer' })
      .variable('book', { assign: { booked: 'vars.answer == "yes"' } })
      .end('end', { output: 'vars.booked' })
      .chain('start', 'plan', 'confirm', 'book', 'end')
      .build(),
  );
  return engine;
}
