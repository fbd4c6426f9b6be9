// A chat endpoint for useChat in a Hono app on a public server: each request names its user by a
// bearer token, and a chat belongs to the user who started it. Run it with `npx tsx
// examples/hono.ts` (after `pnpm turbo run build`): it serves http://127.0.0.1:3000/api/chat
// with a scripted model and two demo tokens. `examples/hono.test.ts` mounts it for real.
import { pathToFileURL } from 'node:url';
import { serve } from '@hono/node-server';
import { createChatHandler } from '@skein/ai-sdk';
import { chatWorkflow, InMemoryCheckpointStore, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { bearerToken } from '@skein/http';
import { Hono } from 'hono';

/** Who a bearer token stands for: the app's own sign-in (a session table, a JWT verifier). */
export type TokenUsers = (token: string) => string | undefined | Promise<string | undefined>;

/** The Hono app: `/api/chat` and its routes, answered by Skein's chat handler. */
export function chatApp(engine: SkeinEngine, users: TokenUsers): Hono {
  const chat = createChatHandler({
    engine,
    // No token: 401. A token of nobody: 401. A user: its chats, and no one else's (404).
    authorize: async (request) => {
      const token = bearerToken(request.headers.get('authorization'));
      return token === undefined ? undefined : users(token);
    },
  });
  const app = new Hono();
  // The handler reads the request itself (its body included): hand it the raw Request.
  app.all('/api/chat', (c) => chat.fetch(c.req.raw));
  app.all('/api/chat/*', (c) => chat.fetch(c.req.raw));
  return app;
}

/** A demo engine: a scripted model that repeats what it is told. */
export function demoEngine(): SkeinEngine {
  const engine = new SkeinEngine({
    llm: new ScriptedLLMClient((request) => ({
      content: `re: ${request.messages.at(-1)?.content}`,
    })),
    store: new InMemoryCheckpointStore(),
  });
  engine.registerWorkflow(chatWorkflow({ systemPrompt: 'Be brief.' }));
  return engine;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const tokens: Record<string, string> = { 'ada-token': 'ada', 'bob-token': 'bob' };
  const app = chatApp(demoEngine(), (token) => tokens[token]);
  serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 3000 }, ({ port }) =>
    console.log(`useChat endpoint at http://127.0.0.1:${port}/api/chat (Bearer ada-token)`),
  );
}
