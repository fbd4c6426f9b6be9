import type { LLMClientConformanceTurn } from '@skein/core/conformance';
import { runLLMClientConformance } from '@skein/core/conformance';
import { type ScriptedTurn, startOpenAICompatibleServer } from '@skein/testkit';
import { createOpenAIClient, type OpenAIClient } from './create-openai-client.js';

/** The server answers with the encoded tool name, as a real provider would. */
function toTurn(turn: LLMClientConformanceTurn, client: () => OpenAIClient): ScriptedTurn {
  switch (turn.type) {
    case 'text':
      return { content: turn.text, usage: turn.usage };
    case 'tool-call':
      return {
        content: turn.thought,
        toolCalls: [
          { name: client().toolNames.encode(turn.name), arguments: JSON.stringify(turn.arguments) },
        ],
        usage: turn.usage,
      };
    case 'slow-text':
      return { content: turn.text, quirks: { chunkDelayMs: 50 } };
    case 'fail':
      throw new Error('a fail turn is answered by the server quirk, never by the script');
  }
}

runLLMClientConformance(
  'createOpenAIClient',
  { toolCallDeltas: true, textDeltasAreContent: true, usage: true, typedAbortError: true },
  async (script) => {
    const [first, ...rest] = script;
    const failing = first?.type === 'fail' ? first : undefined;
    let client: OpenAIClient | undefined;
    const server = await startOpenAICompatibleServer({
      script: (failing ? rest : script).map((turn) => () => toTurn(turn, () => client!)),
      ...(failing
        ? { quirks: { failBeforeSuccess: { status: failing.retryable ? 503 : 400, times: 1 } } }
        : {}),
    });
    client = createOpenAIClient({ baseURL: server.url, apiKey: 'test', model: 'conformance' });
    return { client, cleanup: () => server.close() };
  },
);
