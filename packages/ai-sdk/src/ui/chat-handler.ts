import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SkeinEngine } from '@skein/core';
import { errorResponse, fetchToNode, guardRequest, readJsonBody } from '@skein/http';
import { InvalidArgumentError, SkeinError } from '@skein/spec';
import { readChatRequest } from './chat-request.js';
import { chatRoute, storedMessagesResponse } from './chat-routes.js';
import { ChatRuns } from './chat-runs.js';
import { ChatThreads } from './chat-threads.js';
import type { SkeinDataMode } from './event-translator.js';
import { createUIMessageStreamResponse } from './sse.js';
import { startChatRun } from './start-chat-run.js';

export interface ChatHandlerOptions {
  /** The engine the chats run on; it needs a store (threads are found by chat id there). */
  readonly engine: SkeinEngine;
  /** The workflow a new chat's thread runs (default `chat`, see `chatWorkflow`). */
  readonly workflowId?: string;
  /** Where `useChat`'s `api` points (default `/api/chat`). */
  readonly path?: string;
  /** The largest request body read, in bytes (default 1 MiB: `useChat` sends the whole chat). */
  readonly maxBodyBytes?: number;
  /** Skein's `data-skein-*` parts: transient (default), kept as message parts, or off. */
  readonly skeinData?: SkeinDataMode;
  /**
   * The `Host` values to answer (421 for any other). Leave unset behind your own server's
   * checks; `startChatServer` sets it to its loopback address.
   */
  readonly allowedHosts?: ReadonlySet<string>;
}

/** The routes of one chat endpoint, as a fetch handler and as a Node `(req, res)` handler. */
export interface ChatHandler {
  /** Answers a request under `path`; anything else is 404 `ROUTE_NOT_FOUND`. */
  fetch(request: Request): Promise<Response>;
  /** The same for Node's `http` server (or Express, whose `req`/`res` are Node's). */
  node(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Whether a chat's run goes on in this process. */
  isRunning(chatId: string): boolean;
}

const MAX_BODY = 64 * 1024 * 1024;

/**
 * The server side of `useChat` over Skein threads:
 *
 * - `POST <path>`: `useChat`'s body. A new user message runs the chat's thread on; approval
 *   responses resume its pause (once); `regenerate-message` forks it before the last answer.
 *   Answers with the run's UI message stream.
 * - `GET <path>/:id/stream`: 204 when the chat is not running here, else the current run's parts
 *   from its start, then live (`useChat({ resume: true })` after a reload).
 * - `POST <path>/:id/stop`: cancels the chat's run (204).
 * - `GET <path>/:id/messages`: the stored conversation as `useChat` messages (`{ messages }`).
 */
export function createChatHandler(options: ChatHandlerOptions): ChatHandler {
  const { engine } = options;
  if (!engine.store)
    throw new InvalidArgumentError(
      'engine',
      'the chat handler finds threads by chat id: the engine needs a store',
    );
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1 || maxBodyBytes > MAX_BODY)
    throw new InvalidArgumentError(
      'maxBodyBytes',
      `maxBodyBytes must be an integer from 1 to ${MAX_BODY}, got ${maxBodyBytes}`,
    );
  const base = (options.path ?? '/api/chat').replace(/\/+$/, '');
  const runs = new ChatRuns();
  const threads = new ChatThreads(engine.store);
  const ctx = {
    engine,
    threads,
    workflowId: options.workflowId ?? 'chat',
    skeinData: options.skeinData ?? 'transient',
  };

  async function post(request: Request): Promise<Response> {
    const chat = readChatRequest(await readJsonBody(request, maxBodyBytes));
    const release = runs.claim(chat.chatId);
    try {
      const run = await startChatRun(ctx, chat);
      runs.add(chat.chatId, run, release);
      return createUIMessageStreamResponse({ stream: run.stream() });
    } catch (error) {
      release();
      throw error;
    }
  }

  async function route(request: Request): Promise<Response> {
    // No hosts: a server in front checks the Host; writes from another origin are refused here.
    guardRequest(request, options.allowedHosts ?? null);
    const target = chatRoute(request, base);
    if (target.kind === 'post') return post(request);
    const { chatId } = target;
    if (target.kind === 'messages')
      return storedMessagesResponse(await engine.getThread(await threads.current(chatId)));
    const run = runs.get(chatId);
    if (target.kind === 'stop') {
      run?.controller.abort(
        new SkeinError('CHAT_STOPPED', `Chat ${chatId} was stopped by its client`),
      );
      return new Response(null, { status: 204 });
    }
    if (!run) return new Response(null, { status: 204 });
    return createUIMessageStreamResponse({ stream: run.stream(true) });
  }

  const fetch = (request: Request) => route(request).catch(errorResponse);
  return {
    fetch,
    node: fetchToNode(fetch, { hosts: options.allowedHosts ?? null }),
    isRunning: (chatId) => runs.get(chatId) !== undefined,
  };
}
