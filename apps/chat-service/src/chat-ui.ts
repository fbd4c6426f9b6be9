import { type ChatIfBusy, startChatServer } from '@skein/ai-sdk';
import { type ChatOptions, createChatEngine } from './chat-service.js';
import { pageAssets } from './ui/page-assets.js';

/**
 * The chat in a browser: the same engine as the HTTP service (same tools, same SQLite file),
 * served to `useChat` by `startChatServer` at `/api/chat`, with the page at `/`. Listens on
 * 127.0.0.1 only; other hosts get 421, writes from other origins 403, big bodies 413. `ifBusy`
 * says what a message sent while an answer streams does (default `queue`: answered next).
 */
export async function startChatUi(options: ChatOptions & { port?: number; ifBusy?: ChatIfBusy }) {
  // The page first: a bundle that fails to build leaves no store open.
  const serve = await pageAssets();
  const { engine, store } = await createChatEngine(options);
  const { port, ifBusy } = options;
  const server = await startChatServer({ engine, serve, port, ifBusy }).catch(
    async (error: unknown) => {
      await store.close();
      throw error;
    },
  );
  return { url: server.url, close: () => server.close().then(() => store.close()) };
}
