// Every endpoint of useChat's chat API in one catch-all route: POST /api/chat, and
// GET /api/chat/:id/messages, GET /api/chat/:id/stream, POST /api/chat/:id/stop. The handler
// routes by the request's path itself.
import { createChatHandler } from '@skein/ai-sdk';
import { skeinEngine } from '@/lib/skein';
import { demoUser } from '@/lib/users';

const chat = createChatHandler({
  engine: skeinEngine(),
  // Names the caller of every request, or refuses it (401): a chat is then its caller's, and
  // every other caller gets 404 for it.
  authorize: demoUser,
  // Behind a proxy that ends TLS, Next sees http://…: name the public https origin, or the
  // browser's own writes (Origin: https://…) are refused as cross-origin (403).
  allowedOrigins: process.env.PUBLIC_ORIGIN ? [process.env.PUBLIC_ORIGIN] : [],
});

// The engine and its store run on Node, and every request is answered now (never prerendered).
export const runtime = 'nodejs';
export const dynamic = 'force-dynamic';

const handle = (request: Request) => chat.fetch(request);

export { handle as DELETE, handle as GET, handle as PATCH, handle as POST, handle as PUT };
