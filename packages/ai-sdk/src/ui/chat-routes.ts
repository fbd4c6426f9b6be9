import type { ThreadContext } from '@skein/core';
import { ChatRequestError } from '../errors/chat-request-error.js';
import { checkChatId } from './chat-request.js';
import { toUIMessages } from './stored-chat.js';

/** Which chat endpoint a request is for: the POST of a message, or one chat's stream/stop/messages. */
export type ChatRoute =
  | { readonly kind: 'post' }
  | { readonly kind: 'stream' | 'stop' | 'messages'; readonly chatId: string };

function routeNotFound(path: string): ChatRequestError<'ROUTE_NOT_FOUND'> {
  return new ChatRequestError('ROUTE_NOT_FOUND', `No chat endpoint at ${path}`, { path });
}

function methodNotAllowed(method: string, path: string): ChatRequestError<'METHOD_NOT_ALLOWED'> {
  return new ChatRequestError('METHOD_NOT_ALLOWED', `${method} ${path} is not an endpoint`, {
    method,
    path,
  });
}

/**
 * The endpoint `request` names under `base`: `POST base`, `GET base/:id/stream`,
 * `POST base/:id/stop` and `GET base/:id/messages`; anything else is refused (404, 405).
 */
export function chatRoute(request: Request, base: string): ChatRoute {
  const path = new URL(request.url).pathname;
  if (path === base) {
    if (request.method !== 'POST') throw methodNotAllowed(request.method, path);
    return { kind: 'post' };
  }
  const match = path.startsWith(`${base}/`)
    ? /^([^/]+)\/(stream|stop|messages)$/.exec(path.slice(base.length + 1))
    : null;
  if (!match) throw routeNotFound(path);
  const chatId = checkChatId(decodeURIComponent(match[1]!), 'the chat id in the path');
  const kind = match[2] as 'stream' | 'stop' | 'messages';
  if (request.method !== (kind === 'stop' ? 'POST' : 'GET'))
    throw methodNotAllowed(request.method, path);
  return { kind, chatId };
}

/** `GET …/:id/messages`: the stored chat as `useChat` messages, a pending approval included. */
export function storedMessagesResponse(thread: ThreadContext | undefined): Response {
  const pending = thread?.state.pending;
  const awaiting = new Set(
    pending?.kind === 'tool-approval' && !pending.answer ? pending.awaiting : [],
  );
  return Response.json({
    messages: thread ? toUIMessages(thread.conversation.getAllMessages(), awaiting) : [],
  });
}
