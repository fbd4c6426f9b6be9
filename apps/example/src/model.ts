import { createOpenAIClient, type OpenAIClient } from '@skein/openai';
import { startOpenAICompatibleServer } from '@skein/testkit';
import { travelScript } from './embedded-model.js';

export interface Model {
  readonly llm: OpenAIClient;
  /** Where the model runs, for the summary. */
  readonly label: string;
  close(): Promise<void>;
}

/**
 * A real OpenAI-compatible endpoint when `OPENAI_BASE_URL` or `OPENAI_API_KEY` is set (model from
 * `SKEIN_MODEL`); otherwise the testkit's server, in this process, on 127.0.0.1.
 */
export async function createModel(options: { chunkDelayMs?: number } = {}): Promise<Model> {
  const { OPENAI_BASE_URL, OPENAI_API_KEY, SKEIN_MODEL } = process.env;
  if (OPENAI_BASE_URL || OPENAI_API_KEY) {
    const llm = createOpenAIClient({
      ...(OPENAI_BASE_URL ? { baseURL: OPENAI_BASE_URL } : {}),
      apiKey: OPENAI_API_KEY ?? 'not-needed',
      model: SKEIN_MODEL ?? 'gpt-4o-mini',
      maxRetries: 1,
      timeoutMs: 60_000,
    });
    return {
      llm,
      label: `${SKEIN_MODEL ?? 'gpt-4o-mini'} at ${OPENAI_BASE_URL ?? 'api.openai.com'}`,
      close: async () => {},
    };
  }
  const server = await startOpenAICompatibleServer({
    script: travelScript,
    model: 'skein-demo',
    ...(options.chunkDelayMs ? { quirks: { chunkDelayMs: options.chunkDelayMs } } : {}),
  });
  const llm = createOpenAIClient({ baseURL: server.url, apiKey: 'embedded', model: 'skein-demo' });
  return { llm, label: `embedded scripted model at ${server.url}`, close: () => server.close() };
}
