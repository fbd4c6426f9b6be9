import { createOpenAIClient } from '@skein/openai';

/**
 * The service's settings from the environment: OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL
 * pick the model (any OpenAI-compatible server), CHAT_DB the SQLite file, PORT the port.
 */
export const settings = () => ({
  llm: createOpenAIClient({
    baseURL: process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    apiKey: process.env.OPENAI_API_KEY ?? '',
    model: process.env.OPENAI_MODEL ?? 'gpt-4o-mini',
  }),
  filename: process.env.CHAT_DB ?? 'chat.db',
  port: Number(process.env.PORT ?? 3000),
});
