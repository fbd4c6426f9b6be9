import { randomUUID } from 'node:crypto';
import type { SkeinEngine, ThreadContext } from '@skein/core';
import {
  errorResponse,
  fetchToNode,
  guardRequest,
  HttpRequestError,
  readJsonBody,
} from '@skein/http';
import { InvalidArgumentError } from '@skein/spec';
import type { ChatHandler } from '../chat-handler.js';
import { badChatRequest, type ChatRequest, readChatRequest } from '../chat-request.js';
import { chatRoute, storedMessagesResponse } from '../chat-routes.js';
import { ChatRuns } from '../chat-runs.js';
import { ChatThreads } from '../chat-threads.js';
import { checkHistory } from '../check-history.js';
import type { SkeinDataMode } from '../event-translator.js';
import { createUIMessageStreamResponse } from '../sse.js';
import { startUIRun } from '../start-ui-run.js';
import { answerId, storedAnswerChunks, UI_MESSAGE_ID_KEY } from '../stored-chat.js';
import type { UIRun } from '../ui-run.js';
import type { PartsPool } from './parts-pool.js';
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
  readonly allowedHosts?: ReadonlySet<string>;
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
  const runs = new ChatRuns();
  const threads = new ChatThreads(engine.store);
  const log = new UIPartsLog(options.pool, options.schema ?? 'skein_worker');
  const stored = new StoredRuns(log);

  function run(threadId: string, start: () => Promise<void>, messageId: string, prefix = []) {
    return startUIRun((onEvent, signal) => runOnWorker(client, threadId, start, onEvent, signal), {
      threadId,
      messageId,
      skeinData,
      prefix,
    });
  }

  function approve(
    request: Extract<ChatRequest, { kind: 'approval' }>,
    thread: ThreadContext,
  ): UIRun {
    const { chatId } = request;
    const messages = thread.conversation.getAllMessages();
    checkHistory(chatId, request.history, messages);
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
          () => client.resumeThread(threadId, { approvals }),
          onEvent,
          signal,
        ),
      { threadId, messageId: request.answerId, skeinData, prefix: storedAnswerChunks(messages) },
    );
  }

  async function start(request: ChatRequest): Promise<{ threadId: string; run: UIRun }> {
    const { chatId } = request;
    if (request.kind === 'regenerate')
      throw badChatRequest(
        'trigger',
        'regenerate-message is not supported when threads run on workers',
      );
    const threadId = await threads.current(chatId);
    const thread = await engine.getThread(threadId);
    if (thread?.status === 'RUNNING' || (await log.current(threadId)) !== undefined)
      throw busy(chatId, 'is answering; follow it with GET …/stream, or stop it');
    if (request.kind === 'approval') {
      if (!thread)
        throw new HttpRequestError('CHAT_NOT_FOUND', `Chat ${chatId} has no stored thread`, {
          chatId,
        });
      return { threadId, run: approve(request, thread) };
    }
    const { message } = request;
    checkHistory(chatId, request.history, thread?.conversation.getAllMessages() ?? []);
    const pending = thread?.state.pending;
    if (thread?.status === 'PAUSED' && pending?.kind !== 'user-input')
      throw busy(chatId, 'waits for tool approvals or its branches; answer them first');
    const sent = { content: message.text, metadata: { [UI_MESSAGE_ID_KEY]: message.id } };
    return {
      threadId,
      run: run(
        threadId,
        () => client.sendMessage(threadId, sent, { workflowId }),
        answerId(message.id),
      ),
    };
  }

  async function post(request: Request): Promise<Response> {
    const chat = readChatRequest(await readJsonBody(request, maxBodyBytes));
    const release = runs.claim(chat.chatId);
    try {
      const { threadId, run } = await start(chat);
      runs.add(chat.chatId, run, release);
      // Recorded as the thread's current run before the answer is sent: a reader elsewhere who
      // heard of the answer finds it.
      const runId = randomUUID();
      await log.begin(threadId, runId);
      const recorded = recordRun(log, threadId, runId, run, onError);
      return createUIMessageStreamResponse({ stream: closeAfter(run.stream(), recorded) });
    } catch (error) {
      release();
      throw error;
    }
  }

  async function route(request: Request): Promise<Response> {
    guardRequest(request, options.allowedHosts ?? null);
    const target = chatRoute(request, base);
    if (target.kind === 'post') return post(request);
    const { chatId } = target;
    if (target.kind === 'messages')
      return storedMessagesResponse(await engine.getThread(await threads.current(chatId)));
    const local = runs.get(chatId);
    const threadId = await threads.current(chatId);
    if (target.kind === 'stop') {
      // The worker running the thread aborts it; every reader sees the run end.
      if (local || (await log.current(threadId)) !== undefined) await client.cancelThread(threadId);
      return new Response(null, { status: 204 });
    }
    const stream = local ? local.stream(true) : await stored.follow(threadId);
    if (!stream) return new Response(null, { status: 204 });
    return createUIMessageStreamResponse({ stream });
  }

  const fetch = (request: Request) => route(request).catch(errorResponse);
  return {
    fetch,
    node: fetchToNode(fetch, { hosts: options.allowedHosts ?? null }),
    isRunning: (chatId) => runs.get(chatId) !== undefined,
    close: () => stored.close(),
  };
}
