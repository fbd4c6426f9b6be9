import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { APICallError } from '@ai-sdk/provider';
import type { LLMClientConformanceTurn } from '@skein/core/conformance';
import { runLLMClientConformance } from '@skein/core/conformance';
import { type ScriptedTurn, startOpenAICompatibleServer } from '@skein/testkit';
import { MockLanguageModelV3 } from 'ai/test';
import { conformanceParts } from '../test-support/stream-parts.js';
import { fromLanguageModel, type LanguageModelClient } from './from-language-model.js';

const capabilities = {
  toolCallDeltas: true,
  textDeltasAreContent: true,
  usage: true,
  typedAbortError: true,
};

// 1. The AI SDK's own mock model, answering each turn with the parts a provider streams.
for (const encodeToolNames of [false, true]) {
  runLLMClientConformance(
    `fromLanguageModel(MockLanguageModelV3${encodeToolNames ? ', encodeToolNames' : ''})`,
    capabilities,
    async (script) => {
      let client: LanguageModelClient | undefined;
      let turn = 0;
      const model = new MockLanguageModelV3({
        doStream: async () => {
          const step = script[turn++];
          if (step === undefined) throw new Error('the script has no more turns');
          if (step.type === 'fail')
            throw new APICallError({
              message: step.retryable ? 'Service Unavailable' : 'Bad Request',
              url: 'http://127.0.0.1/v1/chat',
              requestBodyValues: {},
              statusCode: step.retryable ? 503 : 400,
              isRetryable: step.retryable,
            });
          return conformanceParts(step, (name) => client!.toolNames?.encode(name) ?? name);
        },
      });
      client = fromLanguageModel(model, { encodeToolNames });
      return { client };
    },
  );
}

// 2. A real provider package over HTTP: @ai-sdk/openai-compatible against the testkit's server,
// with the quirks that broke clients before (null ids, late ids, split arguments).
function toTurn(turn: LLMClientConformanceTurn, client: () => LanguageModelClient): ScriptedTurn {
  switch (turn.type) {
    case 'text':
      return { content: turn.text, usage: turn.usage };
    case 'tool-call':
      return {
        content: turn.thought,
        toolCalls: [
          {
            name: client().toolNames!.encode(turn.name),
            arguments: JSON.stringify(turn.arguments),
          },
        ],
        usage: turn.usage,
        quirks: { nullIdOnFirstChunk: true, argumentsChunkSize: 3 },
      };
    case 'slow-text':
      return { content: turn.text, quirks: { chunkDelayMs: 50 } };
    case 'fail':
      throw new Error('a fail turn is answered by the server quirk, never by the script');
  }
}

runLLMClientConformance(
  'fromLanguageModel(@ai-sdk/openai-compatible over HTTP)',
  capabilities,
  async (script) => {
    const [first, ...rest] = script;
    const failing = first?.type === 'fail' ? first : undefined;
    let client: LanguageModelClient | undefined;
    const server = await startOpenAICompatibleServer({
      script: (failing ? rest : script).map((turn) => () => toTurn(turn, () => client!)),
      ...(failing
        ? { quirks: { failBeforeSuccess: { status: failing.retryable ? 503 : 400, times: 1 } } }
        : {}),
    });
    const provider = createOpenAICompatible({
      name: 'testkit',
      baseURL: server.url,
      apiKey: 'test',
      includeUsage: true,
    });
    client = fromLanguageModel(provider.chatModel('conformance'), { encodeToolNames: true });
    return { client, cleanup: () => server.close() };
  },
);
