import { randomUUID } from 'node:crypto';
import { busyReason, type SkeinEngine, type ThreadContext } from '@skein/core';
import {
  type Authorize,
  allowedOrigins,
  authorizeRequest,
  checkAuthorize,
  errorResponse,
  fetchToNode,
  type GuardOptions,
  guardRequest,
  HttpRequestError,
  readJsonBody,
} from '@skein/http';
import { InvalidArgumentError } from '@skein/spec';
import { chatNotFound, checkChatOwner } from '../chat-access.js';
import type { ChatHandler } from '../chat-handler.js';
import { type ChatIfBusy, checkIfBusy } from '../chat-if-busy.js';
import { badChatRequest, type ChatRequest, readChatRequest } from '../chat-request.js';
import { chatRoute, storedMessagesResponse } from '../chat-routes.js';
import { type ChatClaim, ChatRuns } from '../chat-runs.js';
import { ChatThreads } from '../chat-threads.js';
import { checkHistory } from '../check-history.js';
import type { GuardedTextMode, SkeinDataMode } from '../event-translator.js';
import { checkGuardedText, guardedTextOf } from '../guarded-text.js';
import { createUIMessageStreamResponse } from '../sse.js';
import { startUIRun } from '../start-ui-run.js';
import { answerId, storedAnswerChunks, UI_MESSAGE_ID_KEY } from '../stored-chat.js';
import { storedWithBytes } from '../stored-with-bytes.js';
import type { UIRun } from '../ui-run.js';
import { endOfAnswer } from './answer-end.js';
import type { PartsPool } from './parts-pool.js';
import { postedMessage } from './posted-message.js';
import { recordRun } from './record-run.js';
import { StoredRuns } from './stored-run-stream.js';
import { UIPartsLog } from './ui-parts-log.js';
import { type ChatWorkerClient, runOnWorker } from './worker-thread-run.js';

export interface WorkerChatHandlerOptions {
  /** Queues the chats' messages and follows their threads (`createWorkerClient(…)`). */
  readonly client: ChatWorkerClient;
  /**
   * An engine on the workers' store, used only to read threads (history checks, pauses,
   * `GET …/messages`); it runs nothing. Register the chat workflows on it too.
   */
  readonly engine: SkeinEngine;
  /** A `pg.Pool` on the workers' database: the runs' UI parts are kept there. */
  readonly pool: PartsPool;
  /** The worker's schema (default `skein_worker`), where the parts tables are made. */
  readonly schema?: string;
  /** The workflow a new chat's thread runs (default `chat`). */
  readonly workflowId?: string;
  /** Where `useChat`'s `api` points (default `/api/chat`). */
  readonly path?: string;
  /** The largest request body read, in bytes (default 1 MiB). */
  readonly maxBodyBytes?: number;
  readonly skeinData?: SkeinDataMode;
  /**
   * An answer's text before its guardrails passed it, as `createChatHandler`'s: default `hold`
   * when `engine` has any guardrail registered (register the workers' guardrails on it too, as
   * its workflows naming them require), else `stream`.
   */
  readonly guardedText?: GuardedTextMode;
  readonly allowedHosts?: ReadonlySet<string>;
  /**
   * Names the caller of each request, or refuses it (401), as `createChatHandler`'s does: a chat
   * belongs to the caller who started it, on every chat server, and is 404 to any other. The
   * caller goes with the jobs (`principal`), so workers build its threads for it.
   */
  readonly authorize?: Authorize;
  /** Origins whose pages may write here besides the request's own (see `createChatHandler`). */
  readonly allowedOrigins?: readonly string[];
  /**
   * A user message for a chat that is answering (its thread runs on a worker, an answer streams
   * from any chat server, or it waits for a wake or tool approvals): `queue` (default), `steer`,
   * `interrupt` or `reject` (409 `CHAT_BUSY`), as `createChatHandler`'s. The message goes as a
   * send job with `ifBusy`; its POST streams the turn that takes it, or says it stays posted.
   */
  readonly ifBusy?: ChatIfBusy;
  /** Told when a run's parts could not be written (readers elsewhere then stop short). */
  readonly onError?: (error: unknown) => void;
}

/** A chat handler whose threads run on workers; `close()` ends its LISTEN connection. */
export interface WorkerChatHandler extends ChatHandler {
  close(): Promise<void>;
}

/** `stream`, whose end waits for `done`: the client hears the end once every server can. */
function closeAfter<T>(stream: ReadableStream<T>, done: Promise<void>): ReadableStream<T> {
  return stream.pipeThrough(new TransformStream<T, T>({ flush: () => done }));
}

function busy(chatId: string, why: string): HttpRequestError<'CHAT_BUSY'> {
  return new HttpRequestError('CHAT_BUSY', `Chat ${chatId} ${why}`, { chatId });
}

/**
 * `createChatHandler`'s routes for threads that run on `@skein/worker`: a message is queued as a
 * send job, the answer streams from the worker's events, and every run's parts are written to the
 * worker's database, so `GET <path>/:id/stream` on any chat server replays and follows the answer
 * (204 when the chat runs nowhere). `regenerate-message` is refused here (use the in-process
 * handler for it).
 */
export function createWorkerChatHandler(options: WorkerChatHandlerOptions): WorkerChatHandler {
  const { engine, client } = options;
  if (!engine.store)
    throw new InvalidArgumentError('engine', 'the chat handler reads threads: it needs a store');
  const maxBodyBytes = options.maxBodyBytes ?? 1024 * 1024;
  const base = (options.path ?? '/api/chat').replace(/\/+$/, '');
  const workflowId = options.workflowId ?? 'chat';
  const skeinData = options.skeinData ?? 'transient';
  const onError = options.onError ?? (() => {});
  const ifBusy = checkIfBusy(options.ifBusy);
  const chosenText = checkGuardedText(options.guardedText);
  /** The UI options of each run (the text mode is chosen per run: guardrails may come later). */
  const ui = () => ({ skeinData, guardedText: guardedTextOf(engine, chosenText) });
  const authorize = checkAuthorize(options.authorize);
  const guard: GuardOptions =
    options.allowedOrigins === undefined
      ? {}
      : { allowedOrigins: allowedOrigins(options.allowedOrigins) };
  const hosts = options.allowedHosts ?? null;
  const runs = new ChatRuns();
  const threads = new ChatThreads(engine.store);
  const log = new UIPartsLog(options.pool, options.schema ?? 'skein_worker');
  const readAttachment = (threadId: string, digest: string) =>
    engine.readAttachment(threadId, digest);
  const stored = new StoredRuns(log, readAttachment);
  /** The caller's principal with the jobs it queues, when there is one. */
  const as = (principal: string | undefined) => (principal === undefined ? {} : { principal });

  /** Messages share the chat with the requests answering it, unless the app rejects them. */
  function claimOf(chat: ChatRequest): ChatClaim {
    if (ifBusy === 'reject') return 'alone';
    return chat.kind === 'message' ? 'shared' : 'open';
  }

  /** A message that starts its thread's turn (nothing answers now): its stream is that turn. */
  function run(threadId: string, start: () => Promise<void>, messageId: string) {
    return startUIRun((onEvent, signal) => runOnWorker(client, threadId, start, onEvent, signal), {
      threadId,
      messageId,
      ...ui(),
    });
  }

  /**
   * A message sent while the chat answers (decision 0036): its send job posts it to the thread's
   * inbox with `ifBusy`, and the stream shows only the turn that takes it (from its
   * `message:added`, see `endOfAnswer`), or ends at once with `data-skein-posted` when it stays
   * posted. `restsNow`: the thread waits for a wake or approvals, so no event will come until
   * then (an interrupt ends the wait and starts the turn, which is then followed).
   */
  function answerWhenTaken(
    threadId: string,
    start: () => Promise<void>,
    uiMessageId: string,
    restsNow: 'WAITING' | 'PAUSED' | undefined,
  ): UIRun {
    const store = engine.store!;
    return startUIRun(
      async (onEvent, signal) => {
        if (restsNow && ifBusy !== 'interrupt') {
          await start();
          return postedMessage(store, threadId, uiMessageId, restsNow);
        }
        const how = await runOnWorker(
          client,
          threadId,
          start,
          onEvent,
          signal,
          endOfAnswer(uiMessageId),
        );
        if (how !== 'posted') return undefined;
        const thread = await engine.getThread(threadId);
        const status = thread?.status === 'WAITING' ? 'WAITING' : 'PAUSED';
        return postedMessage(store, threadId, uiMessageId, status);
      },
      { threadId, messageId: answerId(uiMessageId), ...ui(), answering: uiMessageId },
    );
  }

  async function approve(
    request: Extract<ChatRequest, { kind: 'approval' }>,
    thread: ThreadContext,
    principal: string | undefined,
  ): Promise<UIRun> {
    const { chatId } = request;
    const messages = thread.conversation.getAllMessages();
    await checkHistory(chatId, request.history, messages);
    const pending = thread.state.pending;
    if (thread.status !== 'PAUSED' || pending?.kind !== 'tool-approval' || pending.answer)
      throw new HttpRequestError(
        'APPROVAL_NOT_PENDING',
        `Chat ${chatId}: no tool approval is pending (was this approval sent already?)`,
        { chatId },
      );
    const approvals: Record<string, { approved: boolean; reason?: string }> = {};
    for (const a of request.approvals)
      approvals[a.toolCallId] = {
        approved: a.approved,
        ...(a.reason === undefined ? {} : { reason: a.reason }),
      };
    const missing = pending.awaiting.filter((id) => !Object.hasOwn(approvals, id));
    if (missing.length > 0)
      throw badChatRequest('messages', `has no approval for ${missing.join(', ')}`);
    const threadId = thread.threadId;
    return startUIRun(
      (onEvent, signal) =>
        runOnWorker(
          client,
          threadId,
          () => client.resumeThread(threadId, { approvals }, as(principal)),
          onEvent,
          signal,
        ),
      {
        threadId,
        messageId: request.answerId,
        ...ui(),
        prefix: storedAnswerChunks(await storedWithBytes(thread, engine)),
      },
    );
  }

  async function start(
    request: ChatRequest,
    principal: string | undefined,
    joined: boolean,
  ): Promise<{ threadId: string; run: UIRun }> {
    const { chatId } = request;
    if (request.kind === 'regenerate')
      throw badChatRequest(
        'trigger',
        'regenerate-message is not supported when threads run on workers',
      );
    const threadId = await threads.current(chatId);
    const thread = await engine.getThread(threadId);
    const current = await log.current(threadId);
    // Another caller's chat is no chat, before anything says whether it is answering.
    checkChatOwner(chatId, principal, thread, current);
    const answering = joined || thread?.status === 'RUNNING' || current !== undefined;
    if (answering && (request.kind === 'approval' || ifBusy === 'reject'))
      throw busy(chatId, 'is answering; follow it with GET …/stream, or stop it');
    if (request.kind === 'approval') {
      if (!thread) throw chatNotFound(chatId);
      return { threadId, run: await approve(request, thread, principal) };
    }
    const { message } = request;
    await checkHistory(chatId, request.history, thread?.conversation.getAllMessages() ?? []);
    const paused = thread?.status === 'PAUSED' && busyReason(thread) !== undefined;
    if (paused && ifBusy === 'reject')
      throw busy(chatId, 'waits for tool approvals or its branches; answer them first');
    // Text and files alike: the send job carries the parts (its bytes as base64) to the worker,
    // whose store then keeps each file once by digest.
    const sent = { content: message.content, metadata: { [UI_MESSAGE_ID_KEY]: message.id } };
    const restsNow = thread?.status === 'WAITING' ? 'WAITING' : paused ? 'PAUSED' : undefined;
    if (ifBusy === 'reject' || (!answering && !restsNow))
      return {
        threadId,
        run: run(
          threadId,
          () => client.sendMessage(threadId, sent, { workflowId, ...as(principal) }),
          answerId(message.id),
        ),
      };
    // Sent under the chat's own sender: its messages are posted in the order they came, and
    // not behind the job that runs the turn they join (that one has no sender).
    const send = () =>
      client.sendMessage(threadId, sent, { workflowId, ...as(principal), ifBusy, sender: chatId });
    return { threadId, run: answerWhenTaken(threadId, send, message.id, restsNow) };
  }

  async function post(request: Request, principal: string | undefined): Promise<Response> {
    const chat = readChatRequest(await readJsonBody(request, maxBodyBytes));
    const { release, joined } = runs.hold(chat.chatId, principal, claimOf(chat));
    try {
      const { threadId, run } = await start(chat, principal, joined);
      runs.add(chat.chatId, run, release);
      // Recorded as the thread's current run before the answer is sent: a reader elsewhere who
      // heard of the answer finds it (and whose it is).
      const runId = randomUUID();
      await log.begin(threadId, runId, principal);
      const recorded = recordRun({ log, threadId, runId, readAttachment }, run, onError);
      return createUIMessageStreamResponse({ stream: closeAfter(run.stream(), recorded) });
    } catch (error) {
      release();
      throw error;
    }
  }

  async function route(request: Request): Promise<Response> {
    guardRequest(request, hosts, guard);
    const target = chatRoute(request, base);
    const principal = authorize ? await authorizeRequest(authorize, request) : undefined;
    if (target.kind === 'post') return post(request, principal);
    const { chatId } = target;
    const threadId = await threads.current(chatId);
    const local = runs.get(chatId);
    const read = target.kind === 'messages' || principal !== undefined;
    const thread = read ? await engine.getThread(threadId) : undefined;
    const current = local ?? (principal === undefined ? undefined : await log.current(threadId));
    checkChatOwner(chatId, principal, thread, current);
    if (target.kind === 'messages') return storedMessagesResponse(thread, engine);
    if (target.kind === 'stop') {
      // The worker running the thread aborts it; every reader sees the run end.
      if (local || (await log.current(threadId)) !== undefined) await client.cancelThread(threadId);
      return new Response(null, { status: 204 });
    }
    // A run elsewhere is followed only if it answers this caller (it may have begun since).
    const stream = local
      ? local.run.stream(true)
      : await stored.follow(
          threadId,
          (run) => principal === undefined || run.principal === principal,
        );
    if (!stream) return new Response(null, { status: 204 });
    return createUIMessageStreamResponse({ stream });
  }

  const fetch = (request: Request) => route(request).catch(errorResponse);
  return {
    fetch,
    node: fetchToNode(fetch, { hosts, ...guard }),
    isRunning: (chatId) => runs.get(chatId) !== undefined,
    close: () => stored.close(),
  };
}
