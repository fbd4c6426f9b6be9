import { SkeinError } from '@skein/spec';
import { runLLMClientConformance } from '../conformance/llm-client-conformance.js';
import type { LLMClientConformanceTurn } from '../conformance/llm-client-conformance-types.js';
import { ScriptedLLMClient } from './scripted-llm-client.js';
import type { ScriptedResponse } from './types.js';

function toStep(turn: LLMClientConformanceTurn): ScriptedResponse {
  const usage = (u: { promptTokens: number; completionTokens: number }) => ({
    ...u,
    totalTokens: u.promptTokens + u.completionTokens,
  });
  switch (turn.type) {
    case 'text':
      return { content: turn.text, usage: usage(turn.usage) };
    case 'tool-call':
      return {
        content: turn.thought,
        toolCalls: [{ name: turn.name, arguments: turn.arguments }],
        usage: usage(turn.usage),
      };
    case 'slow-text':
      return { content: turn.text, tokenDelayMs: 50 };
    case 'fail':
      // Text is the scripted client's passing outage; a request it can never take is an Error.
      return {
        fail: turn.retryable
          ? 'provider overloaded'
          : new SkeinError('BAD_REQUEST', 'the request was refused', { retryable: false }),
      };
  }
}

runLLMClientConformance(
  'ScriptedLLMClient',
  // Scripted steps hold whole calls, and an abort rethrows the signal's reason.
  { toolCallDeltas: false, textDeltasAreContent: true, usage: true, typedAbortError: false },
  async (script) => ({ client: new ScriptedLLMClient(script.map(toStep)) }),
);
