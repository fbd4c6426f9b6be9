import type { SkeinEngine, ThreadContext } from '@skein/core';
import { decodePathSegment, HttpRequestError } from '@skein/http';
import { checkChatId } from './chat-request.js';
import { toUIMessages } from './stored-chat.js';
import { storedWithBytes } from './stored-with-bytes.js';

/** Which chat endpoint a request is for: the POST of a message, or one chat's stream/stop/messages. */
export type ChatRoute =
  | { readonly kind: 'post' }
  | { readonly kind: 'stream' | 'stop' | 'messages'; readonly chatId: string };

/**
 * The endpoint `request` names under `base`: `POST base`, `GET base/:id/stream`,
 * `POST base/:id/stop` and `GET base/:id/messages`; anything else is refused (404, 405), a
 * malformed escape in the chat id too (400 `INVALID_PATH`).
 */
export function chatRoute(request: Request, base: string): ChatRoute {
  const path = new URL(request.url).pathname;
  if (path === base) {
    if (request.method !== 'POST')
      throw HttpRequestError.methodNotAllowed(request.method, ['POST']);
    return { kind: 'post' };
  }
  const match = path.startsWith(`${base}/`)
    ? /^([^/]+)\/(stream|stop|messages)$/.exec(path.slice(base.length + 1))
    : null;
  if (!match) throw HttpRequestError.routeNotFound(path);
  const chatId = checkChatId(decodePathSegment(match[1]!, path), 'the chat id in the path');
  const kind = match[2] as 'stream' | 'stop' | 'messages';
  const allowed = kind === 'stop' ? 'POST' : 'GET';
  if (request.method !== allowed)
    throw HttpRequestError.methodNotAllowed(request.method, [allowed]);
  return { kind, chatId };
}

/**
 * `GET …/:id/messages`: the stored chat as `useChat` messages, a pending approval included, its
 * files as data URLs (attachments the store holds by digest read back through `engine`; the
 * caller was found to own the chat before).
 */
export async function storedMessagesResponse(
  thread: ThreadContext | undefined,
  engine: SkeinEngine,
): Promise<Response> {
  const pending = thread?.state.pending;
  const awaiting = new Set(
    pending?.kind === 'tool-approval' && !pending.answer ? pending.awaiting : [],
  );
  return Response.json({
    messages: thread ? toUIMessages(await storedWithBytes(thread, engine), awaiting) : [],
  });
}
