// A chat endpoint for useChat in an Express app on a public server: the user signs in once and
// gets a signed session cookie, which names them on every chat request; a chat belongs to the
// user who started it. Run it with `npx tsx examples/express.ts` (after `pnpm turbo run build`):
// `POST /login {"user":"ada"}` sets the cookie, then useChat talks to /api/chat. The origin check
// of the chat handler refuses writes from other sites' pages (403): a cookie alone is not enough.
// `examples/express.test.ts` mounts it for real.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import { pathToFileURL } from 'node:url';
import { createChatHandler } from '@skein/ai-sdk';
import type { SkeinEngine } from '@skein/core';
import express, { type Express } from 'express';
import { demoEngine } from './hono.js';

const signature = (user: string, secret: string) =>
  createHmac('sha256', secret).update(user).digest('base64url');

/** `user.signature`: the cookie value that names `user`, signed with the app's secret. */
export function sessionCookie(user: string, secret: string): string {
  return `${encodeURIComponent(user)}.${signature(user, secret)}`;
}

/** The user a `session` cookie names, if its signature holds; undefined otherwise. */
function sessionUser(cookieHeader: string | null, secret: string): string | undefined {
  const value = /(?:^|;\s*)session=([^;]*)/.exec(cookieHeader ?? '')?.[1];
  const dot = value?.lastIndexOf('.') ?? -1;
  if (value === undefined || dot < 1) return undefined;
  let user: string;
  try {
    user = decodeURIComponent(value.slice(0, dot));
  } catch {
    return undefined;
  }
  const given = Buffer.from(value.slice(dot + 1));
  const expected = Buffer.from(signature(user, secret));
  return given.length === expected.length && timingSafeEqual(given, expected) ? user : undefined;
}

/** The Express app: `/login`, and `/api/chat` with its routes answered by Skein's chat handler. */
export function chatApp(engine: SkeinEngine, secret: string): Express {
  const chat = createChatHandler({
    engine,
    authorize: (request) => sessionUser(request.headers.get('cookie'), secret),
  });
  const app = express();
  // Mounted with app.all, not app.use (which would cut /api/chat off the URL the handler
  // routes by), and before any body parser: the handler reads and bounds the body itself.
  app.all(['/api/chat', '/api/chat/*rest'], (req, res) => void chat.node(req, res));
  app.post('/login', express.json(), (req, res) => {
    const user = (req.body as { user?: unknown } | undefined)?.user;
    if (typeof user !== 'string' || user === '') {
      res.status(400).json({ error: 'user must be a non-empty string' });
      return;
    }
    // A real app checks a password or an identity provider here.
    res
      .cookie('session', sessionCookie(user, secret), {
        httpOnly: true,
        sameSite: 'lax',
        encode: String,
      })
      .status(204)
      .end();
  });
  return app;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const server: Server = chatApp(demoEngine(), 'a long random secret of the app').listen(
    3000,
    '127.0.0.1',
    () => console.log('POST /login, then useChat at http://127.0.0.1:3000/api/chat'),
  );
  process.once('SIGINT', () => server.close());
}
