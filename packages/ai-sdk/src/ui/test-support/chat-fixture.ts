import { chatWorkflow, defineTool, InMemoryCheckpointStore, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient, type ScriptedResponse } from '@skein/core/testing';
import { contentText, type LLMClient, type LLMRequest } from '@skein/spec';

/** A long answer streamed slowly, so a test can join or stop it mid-way. */
export const SLOW_ANSWER =
  'Once upon a time a thread streamed its answer one token at a time, and a reader came late.';

/**
 * The model of the chat tests, answering by the last message:
 * - `weather?`: calls `weather`, then says what it returned;
 * - `pay N`: calls `pay` (which needs approval), then says "Paid." or why not;
 * - `slow`: streams SLOW_ANSWER with `delayMs` between tokens;
 * - anything else: `re: <text>`.
 */
function reply(request: LLMRequest, delayMs: number): ScriptedResponse {
  const last = request.messages.at(-1)!;
  if (last.role === 'tool')
    return last.metadata?.errorCode === 'TOOL_REJECTED'
      ? { content: `Not paid (${last.content})` }
      : { content: `Done: ${last.content}` };
  const text = contentText(last.content);
  if (text === 'weather?')
    return { toolCalls: [{ id: 'call-weather', name: 'weather', arguments: { city: 'Lisbon' } }] };
  const pay = /^pay (\d+)$/.exec(text);
  if (pay)
    return {
      toolCalls: [{ id: `call-pay-${pay[1]}`, name: 'pay', arguments: { amount: Number(pay[1]) } }],
    };
  if (text === 'slow') return { content: SLOW_ANSWER, tokenDelayMs: delayMs };
  return { content: `re: ${text}` };
}

const weather = defineTool({
  name: 'weather',
  description: 'The weather in a city',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  },
  execute: async ({ city }) => ({ city, sky: 'sunny' }),
});

/** Pays: needs a person's approval. */
export const payments: number[] = [];
const pay = defineTool({
  name: 'pay',
  description: 'Pays an amount',
  parameters: {
    type: 'object',
    properties: { amount: { type: 'number' } },
    required: ['amount'],
    additionalProperties: false,
  },
  needsApproval: true,
  execute: async ({ amount }) => {
    payments.push(amount);
    return { paid: amount };
  },
});

/** An engine with the chat workflow, the two tools and the scripted model above. */
export function chatEngine(
  options: { tokenDelayMs?: number; wrap?: (llm: LLMClient) => LLMClient } = {},
) {
  const llm = new ScriptedLLMClient((request) => reply(request, options.tokenDelayMs ?? 20));
  const store = new InMemoryCheckpointStore();
  const engine = new SkeinEngine({ llm: options.wrap?.(llm) ?? llm, store });
  engine.registerTools([weather, pay]);
  engine.registerWorkflow(chatWorkflow({ systemPrompt: 'Be brief.', tools: ['weather', 'pay'] }));
  return { engine, llm, store };
}
