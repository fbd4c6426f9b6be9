import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SkeinEngine } from '@skein/core';
import {
  type Authorize,
  allowedOrigins,
  authorizeRequest,
  checkAuthorize,
  errorResponse,
  fetchToNode,
  type GuardOptions,
  guardRequest,
  readJsonBody,
} from '@skein/http';
import { InvalidArgumentError, SkeinError } from '@skein/spec';
import { chatCaller, checkChatOwner } from './chat-access.js';
import { type ChatIfBusy, checkIfBusy } from './chat-if-busy.js';
import { type ChatRequest, readChatRequest } from './chat-request.js';
import { chatRoute, storedMessagesResponse } from './chat-routes.js';
import { type ChatClaim, ChatRuns } from './chat-runs.js';
import { ChatThreads } from './chat-threads.js';
import type { GuardedTextMode, SkeinDataMode } from './event-translator.js';
import { checkGuardedText, guardedTextOf } from './guarded-text.js';
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
   * An answer's text before its guardrails passed it: `hold` sends each model call's text once
   * the answer is taken (a tripped answer never reaches the page), `stream` sends it as it comes
   * and retracts it on a trip (`data-skein-retract`). Default: `hold` when the engine has any
   * guardrail registered, else `stream`.
   */
  readonly guardedText?: GuardedTextMode;
  /**
   * The `Host` values to answer (421 for any other). Leave unset behind your own server's
   * checks; `startChatServer` sets it to its loopback address.
   */
  readonly allowedHosts?: ReadonlySet<string>;
  /**
   * Names the caller of each request (a bearer token's subject, a session cookie's user), or
   * refuses it (401 with `WWW-Authenticate`): see `Authorize` in `@skein/http`. With it, a chat
   * belongs to the caller who started it: its thread records the principal, and every route of
   * a chat of another caller (or of a thread made before `authorize`) is 404 `CHAT_NOT_FOUND`.
   * Without it anyone who knows a chat id reaches the chat: fine on a developer's machine, not
   * on the internet.
   */
  readonly authorize?: Authorize;
  /**
   * Origins whose pages may write here besides the request's own (`https://app.example.com`
   * calling an API on another origin): every other origin is refused (403). The request's own
   * origin is `<scheme>://<Host>` with the scheme of its URL; behind a proxy that ends TLS, name
   * the public origin here (forwarded headers are not trusted).
   */
  readonly allowedOrigins?: readonly string[];
  /**
   * A user message for a chat that is answering (here, in another process, or waiting for
   * approvals or a wake): `queue` (default) answers it after the running answer, `steer` adds it
   * to the running answer before its next model call, `interrupt` ends the running answer at its
   * next safe point and answers it, `reject` refuses it (409 `CHAT_BUSY`). See the README for
   * what each POST's stream shows.
   */
  readonly ifBusy?: ChatIfBusy;
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
 * - `POST <path>`: `useChat`'s body. A new user message runs the chat's thread on (or, while the
 *   chat answers, waits, steers or interrupts as `ifBusy` says); approval responses resume its
 *   pause (once); `regenerate-message` forks it before the last answer. Answers with the run's UI
 *   message stream.
 * - `GET <path>/:id/stream`: 204 when the chat is not running here, else the current run's parts
 *   from its start, then live (`useChat({ resume: true })` after a reload); with messages
 *   waiting, the run now is the oldest that has not ended.
 * - `POST <path>/:id/stop`: cancels the chat's run (204).
 * - `GET <path>/:id/messages`: the stored conversation as `useChat` messages (`{ messages }`).
 *
 * With `authorize`, each request names its caller first (401 otherwise) and a chat is its
 * caller's: on every route, a chat of another caller is 404 `CHAT_NOT_FOUND`.
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
  const authorize = checkAuthorize(options.authorize);
  const guard: GuardOptions =
    options.allowedOrigins === undefined
      ? {}
      : { allowedOrigins: allowedOrigins(options.allowedOrigins) };
  const hosts = options.allowedHosts ?? null;
  const runs = new ChatRuns();
  const threads = new ChatThreads(engine.store);
  const workflowId = options.workflowId ?? 'chat';
  const skeinData = options.skeinData ?? 'transient';
  const ifBusy = checkIfBusy(options.ifBusy);
  const guardedText = checkGuardedText(options.guardedText);

  /** Messages share the chat with the requests answering it, unless the app rejects them. */
  function claimOf(chat: ChatRequest): ChatClaim {
    if (chat.kind === 'regenerate' || ifBusy === 'reject') return 'alone';
    if (chat.kind === 'approval') return 'open';
    return 'shared';
  }

  async function post(request: Request, principal: string | undefined): Promise<Response> {
    const chat = readChatRequest(await readJsonBody(request, maxBodyBytes));
    const { release, joined } = runs.hold(chat.chatId, principal, claimOf(chat));
    try {
      const caller = chatCaller(engine, principal);
      const context = {
        engine,
        caller,
        threads,
        workflowId,
        skeinData,
        guardedText: guardedTextOf(engine, guardedText),
        ifBusy,
      };
      const run = await startChatRun(context, chat, joined);
      runs.add(chat.chatId, run, release);
      return createUIMessageStreamResponse({ stream: run.stream() });
    } catch (error) {
      release();
      throw error;
    }
  }

  async function route(request: Request): Promise<Response> {
    // No hosts: a server in front checks the Host; writes from another origin are refused here.
    guardRequest(request, hosts, guard);
    const target = chatRoute(request, base);
    const principal = authorize ? await authorizeRequest(authorize, request) : undefined;
    if (target.kind === 'post') return post(request, principal);
    const { chatId } = target;
    const local = runs.get(chatId);
    const read = target.kind === 'messages' || principal !== undefined;
    const thread = read ? await engine.getThread(await threads.current(chatId)) : undefined;
    checkChatOwner(chatId, principal, thread, local);
    if (target.kind === 'messages') return storedMessagesResponse(thread, engine);
    if (target.kind === 'stop') {
      local?.run.controller.abort(
        new SkeinError('CHAT_STOPPED', `Chat ${chatId} was stopped by its client`),
      );
      return new Response(null, { status: 204 });
    }
    if (!local) return new Response(null, { status: 204 });
    return createUIMessageStreamResponse({ stream: local.run.stream(true) });
  }

  const fetch = (request: Request) => route(request).catch(errorResponse);
  return {
    fetch,
    node: fetchToNode(fetch, { hosts, ...guard }),
    isRunning: (chatId) => runs.get(chatId) !== undefined,
  };
}
