import { createOpenAIClient } from '@skein/openai';
import { startChatService } from './chat-service.js';

// OPENAI_BASE_URL / OPENAI_API_KEY / OPENAI_MODEL pick the model (any OpenAI-compatible server).
const service = await startChatService({
  llm: createOpenAIClient({
    baseURL: process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    apiKey: process.env.OPENAI_API_KEY ?? '',
    model: process.env.OPENAI_MODEL ?? 'gpt-4o-mini',
  }),
  filename: process.env.CHAT_DB ?? 'chat.db',
  port: Number(process.env.PORT ?? 3000),
});
console.log(`chat service on ${service.url}`);
