import { createOpenAIClient } from '@skein/openai';
import { startChatUi } from './chat-ui.js';

// The same settings as `start` (src/main.ts): a chat here is the thread of the same id there.
const ui = await startChatUi({
  llm: createOpenAIClient({
    baseURL: process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1',
    apiKey: process.env.OPENAI_API_KEY ?? '',
    model: process.env.OPENAI_MODEL ?? 'gpt-4o-mini',
  }),
  filename: process.env.CHAT_DB ?? 'chat.db',
  port: Number(process.env.PORT ?? 3000),
});
console.log(`chat UI on ${ui.url}`);
