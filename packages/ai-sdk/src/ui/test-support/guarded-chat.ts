import {
  chatWorkflow,
  defineTool,
  type Guardrail,
  InMemoryCheckpointStore,
  SkeinEngine,
} from '@skein/core';
import { ScriptedLLMClient, type ScriptedResponse } from '@skein/core/testing';
import { contentText, type LLMClient, type LLMRequest } from '@skein/spec';

/** The answer the output guardrail stops. */
export const SECRET_ANSWER = 'The SECRET code of the vault is 4711.';

const offTopic: Guardrail = {
  stages: ['input'],
  check: (subject) =>
    subject.stage === 'input' &&
    subject.messages.some((m) => /weather/i.test(contentText(m.content)))
      ? { action: 'trip', reason: 'off topic' }
      : { action: 'pass' },
};

const noSecrets: Guardrail = {
  stages: ['output'],
  check: (subject) =>
    subject.stage === 'output' && contentText(subject.message.content).includes('SECRET')
      ? { action: 'trip', reason: 'the answer holds a secret' }
      : { action: 'pass' },
};

/** Redacts e-mail addresses from tool results; trips on a result that gives a PIN away. */
const pii: Guardrail = {
  stages: ['tool-result'],
  check: (subject) => {
    if (subject.stage !== 'tool-result') return { action: 'pass' };
    const text = contentText(subject.result.content);
    if (text.includes('PIN')) return { action: 'trip', reason: 'a PIN in a tool result' };
    const redacted = text.replace(/[\w.]+@[\w.]+/g, '[email]');
    return redacted === text ? { action: 'pass' } : { action: 'redact', content: redacted };
  },
};

const chargeLimit: Guardrail = {
  stages: ['tool-call'],
  check: (subject) => {
    if (subject.stage !== 'tool-call') return { action: 'pass' };
    const { amount } = subject.call.arguments as { amount: number };
    return amount > 800 ? { action: 'refuse', reason: 'over 800' } : { action: 'pass' };
  },
};

/**
 * The model, by the last message: `secret?` answers SECRET_ANSWER; `customer?` calls `lookup`
 * (its result holds an e-mail address) and `charge` for 900 (refused); `pin?` calls `pin` (its
 * result trips); after tool results, `Done.`; anything else `re: <text>`.
 */
function reply(request: LLMRequest): ScriptedResponse {
  const last = request.messages.at(-1)!;
  if (last.role === 'tool') return { content: 'Done.' };
  const text = contentText(last.content);
  if (text === 'secret?') return { content: SECRET_ANSWER };
  if (text === 'customer?')
    return {
      content: 'Looking.',
      toolCalls: [
        { id: 'call-lookup', name: 'lookup', arguments: {} },
        { id: 'call-charge', name: 'charge', arguments: { amount: 900 } },
      ],
    };
  if (text === 'pin?') return { toolCalls: [{ id: 'call-pin', name: 'pin', arguments: {} }] };
  return { content: `re: ${text}` };
}

/** A chat engine whose workflow names a guardrail for every stage (`wrap` wraps its model). */
export function guardedChatEngine(options: { wrap?: (llm: LLMClient) => LLMClient } = {}) {
  const llm = new ScriptedLLMClient(reply);
  const store = new InMemoryCheckpointStore();
  const engine = new SkeinEngine({
    llm: options.wrap?.(llm) ?? llm,
    store,
    guardrails: { offTopic, noSecrets, pii, chargeLimit },
  });
  const none = { type: 'object', properties: {} } as const;
  engine.registerTools([
    defineTool({
      name: 'lookup',
      description: 'Finds a customer',
      parameters: none,
      execute: () => ({ name: 'Ada', email: 'ada@example.com' }),
    }),
    defineTool({
      name: 'charge',
      description: 'Charges an amount',
      parameters: { type: 'object', properties: { amount: { type: 'number' } } },
      execute: ({ amount }) => ({ charged: amount }),
    }),
    defineTool({
      name: 'pin',
      description: 'Reads the PIN',
      parameters: none,
      execute: () => 'PIN kiwi-lime',
    }),
  ]);
  engine.registerWorkflow({
    ...chatWorkflow({ tools: ['lookup', 'charge', 'pin'] }),
    guardrails: {
      input: ['offTopic'],
      output: ['noSecrets'],
      toolCall: ['chargeLimit'],
      toolResult: ['pii'],
    },
  });
  return { engine, llm, store };
}
