import type { LLMClientConformanceTurn } from '@skein/core/conformance';
import { runLLMClientConformance } from '@skein/core/conformance';
import { SkeinError } from '@skein/spec';
import { buildToolBenchSystemMessage } from '../prompt/system-message.js';
import { type CompletionRequest, createReActLLMClient } from './react-llm-client.js';

const react = (thought: string, action: string, input: unknown) =>
  `Thought: ${thought}\nAction: ${action}\nAction Input: ${JSON.stringify(input)}`;

/** Streams like a completions endpoint: a few characters at a time, ended by the signal. */
async function* tokens(text: string, signal: AbortSignal, delayMs = 0) {
  for (let i = 0; i < text.length; i += 4) {
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    if (signal.aborted) throw signal.reason;
    yield text.slice(i, i + 4);
  }
}

function completion(turn: LLMClientConformanceTurn, request: CompletionRequest) {
  switch (turn.type) {
    case 'text':
      return tokens(
        react('', 'Finish', { return_type: 'give_answer', final_answer: turn.text }),
        request.signal,
      );
    case 'tool-call':
      return tokens(react(turn.thought, turn.name, turn.arguments), request.signal);
    case 'slow-text':
      return tokens(react('', 'Finish', { final_answer: turn.text }), request.signal, 50);
    case 'fail':
      // The completion backend's own typed error, which the client passes on as it is.
      throw new SkeinError('COMPLETION_FAILED', 'the completion server failed', {
        retryable: turn.retryable,
      });
  }
}

runLLMClientConformance(
  'createReActLLMClient',
  // ReAct models write text: calls are parsed from it once complete, the deltas are that raw
  // text, a completion function reports no usage, and an abort rethrows the signal's reason.
  { toolCallDeltas: false, textDeltasAreContent: false, usage: false, typedAbortError: false },
  async (script) => {
    let turn = 0;
    const client = createReActLLMClient({
      complete: (request) => completion(script[turn++]!, request),
    });
    // The ToolLLaMA prompt is built around the reference system message.
    return {
      client,
      systemPrompt: buildToolBenchSystemMessage('Answer questions about customers.'),
    };
  },
);
