import { busyReason, type SkeinEngine, type ThreadContext } from '@skein/core';
import { HttpRequestError } from '@skein/http';
import type { LLMMessage, PostedMessage } from '@skein/spec';
import { type ChatCaller, chatNotFound, checkChatOwner } from './chat-access.js';
import type { ChatIfBusy } from './chat-if-busy.js';
import { badChatRequest, type ChatRequest } from './chat-request.js';
import type { ChatThreads } from './chat-threads.js';
import { checkHistory } from './check-history.js';
import type { GuardedTextMode, SkeinDataMode } from './event-translator.js';
import { startUIRun } from './start-ui-run.js';
import { answerId, storedAnswerChunks, UI_MESSAGE_ID_KEY, userMessageId } from './stored-chat.js';
import { storedWithBytes } from './stored-with-bytes.js';
import type { UIRun } from './ui-run.js';

export interface ChatRunContext {
  /** The engine itself: it reads threads and follows their events once they are the caller's. */
  readonly engine: SkeinEngine;
  /** Who asks, and what of the engine it may use (its principal's view, with `authorize`). */
  readonly caller: ChatCaller;
  readonly threads: ChatThreads;
  /** The workflow a new chat's thread runs. */
  readonly workflowId: string;
  readonly skeinData: SkeinDataMode;
  /** A model call's text before its guardrails passed it (see `GuardedTextMode`). */
  readonly guardedText: GuardedTextMode;
  /** What a message for a chat that is answering does (see `ChatIfBusy`). */
  readonly ifBusy: ChatIfBusy;
}

function busy(chatId: string, why: string): HttpRequestError<'CHAT_BUSY'> {
  return new HttpRequestError('CHAT_BUSY', `Chat ${chatId} ${why}`, { chatId });
}

/** Whether `thread` would not take a message as its next turn now (it runs, or waits). */
function isBusy(thread: ThreadContext | undefined): boolean {
  return thread !== undefined && busyReason(thread) !== undefined;
}

/**
 * Sends the new user message: a new thread, the answer a pause waits for, or the next turn; for
 * a chat that is answering, as `ifBusy` says. `waiting` are the messages of the thread's inbox
 * that no turn took yet: the client sent them, so its history holds them after the stored ones.
 * `joined`: another request of this process is sending to the chat, so the message may wait.
 */
async function sendMessage(
  ctx: ChatRunContext,
  request: Extract<ChatRequest, { kind: 'message' }>,
  threadId: string,
  thread: ThreadContext | undefined,
  waiting: readonly PostedMessage[],
  joined: boolean,
): Promise<UIRun> {
  const { chatId, message } = request;
  const stored = thread?.conversation.getAllMessages() ?? [];
  await checkHistory(chatId, request.history, [...stored, ...waiting.map((p) => p.message)]);
  if (ctx.ifBusy === 'reject' && thread?.status === 'RUNNING')
    throw busy(chatId, 'is running in another process; follow it with GET …/stream there');
  if (ctx.ifBusy === 'reject' && thread?.status === 'PAUSED' && isBusy(thread))
    throw busy(chatId, 'waits for tool approvals or its branches; answer them first');
  // A message that may wait for a running turn answers from the moment it joins the thread;
  // one that starts its own turn is streamed whole, as before (an answer to a pause for input
  // is stored without the message's UI id, so it could not be waited for).
  const mayWait = joined || waiting.length > 0 || isBusy(thread);
  return startUIRun(
    (onEvent, signal) =>
      ctx.caller.threads.send(
        threadId,
        { content: message.content, metadata: { [UI_MESSAGE_ID_KEY]: message.id } },
        { workflowId: ctx.workflowId, onEvent, signal, ifBusy: ctx.ifBusy },
      ),
    {
      threadId,
      messageId: answerId(message.id),
      skeinData: ctx.skeinData,
      guardedText: ctx.guardedText,
      ...(mayWait ? { answering: message.id } : {}),
    },
  );
}

/**
 * The thread's inbox messages no turn took yet, read before the thread itself: a message taken
 * in between is then in both (and dropped here by the thread's mark), never in neither.
 */
async function inboxOf(ctx: ChatRunContext, threadId: string): Promise<PostedMessage[]> {
  if (ctx.ifBusy === 'reject') return [];
  return (await ctx.engine.store?.pendingMessages?.(threadId)) ?? [];
}

/**
 * Resumes the pause the approvals answer, exactly once: the claim is stored before anything runs,
 * so a second submission of the same approvals (or a concurrent one) is refused.
 */
async function resumeApprovals(
  ctx: ChatRunContext,
  request: Extract<ChatRequest, { kind: 'approval' }>,
  thread: ThreadContext,
): Promise<UIRun> {
  const { chatId } = request;
  const messages = thread.conversation.getAllMessages();
  await checkHistory(chatId, request.history, messages);
  const pending = thread.state.pending;
  const notPending = (why: string) =>
    new HttpRequestError('APPROVAL_NOT_PENDING', `Chat ${chatId}: ${why}`, { chatId });
  if (thread.status !== 'PAUSED' || pending?.kind !== 'tool-approval' || pending.answer)
    throw notPending('no tool approval is pending (was this approval sent already?)');
  const approvals: Record<string, { approved: boolean; reason?: string }> = {};
  for (const a of request.approvals) {
    if (!pending.awaiting.includes(a.toolCallId))
      throw notPending(`tool call ${a.toolCallId} does not wait for an approval`);
    approvals[a.toolCallId] =
      a.reason === undefined
        ? { approved: a.approved }
        : { approved: a.approved, reason: a.reason };
  }
  const missing = pending.awaiting.filter((id) => !Object.hasOwn(approvals, id));
  if (missing.length > 0)
    throw badChatRequest(
      'messages',
      `has no approval response for tool call ${missing.join(', ')}`,
    );
  let claimed!: Promise<unknown>;
  const run = startUIRun(
    (onEvent, signal) => {
      const unsubscribe = ctx.engine.subscribe(thread.threadId, onEvent);
      const started = ctx.caller.threads.claimResume(thread, { approvals }, { signal });
      claimed = started;
      return started.then((s) => s.result).finally(unsubscribe);
    },
    {
      threadId: thread.threadId,
      messageId: request.answerId,
      skeinData: ctx.skeinData,
      guardedText: ctx.guardedText,
      prefix: storedAnswerChunks(await storedWithBytes(thread, ctx.engine)),
    },
  );
  await claimed;
  return run;
}

/** The storage position of the last user message. */
function lastUserPosition(messages: readonly LLMMessage[]): number {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return i;
  return -1;
}

/**
 * Answers the last user message again: the thread is forked from the checkpoint taken right after
 * that message was stored (before any of the answer), and the chat goes on in the fork once it
 * has a checkpoint of its own. The old answer stays in the old thread.
 */
async function regenerate(
  ctx: ChatRunContext,
  request: Extract<ChatRequest, { kind: 'regenerate' }>,
  thread: ThreadContext,
): Promise<UIRun> {
  const { chatId } = request;
  const messages = thread.conversation.getAllMessages();
  await checkHistory(chatId, request.history, messages);
  if (thread.status === 'RUNNING') throw busy(chatId, 'is running in another process');
  const position = lastUserPosition(messages);
  const store = ctx.engine.store!;
  const checkpoints = (await store.list(thread.threadId)).sort((a, b) => a.sequence - b.sequence);
  const before = checkpoints.find((c) => c.messageCount > position);
  if (position < 0 || before?.messageCount !== position + 1 || before.status !== 'RUNNING')
    throw new HttpRequestError(
      'NOTHING_TO_REGENERATE',
      `Chat ${chatId}: no checkpoint holds the last user message without its answer, so there is no answer to take back`,
      { chatId },
    );
  const next = await ctx.threads.next(chatId);
  const fork = await ctx.caller.threads.loadThread(thread.threadId, before.id, {
    forkAs: next.threadId,
  });
  const userId = userMessageId(messages[position]!, position);
  return startUIRun(
    (onEvent, signal) => {
      const unsubscribe = ctx.engine.subscribe(next.threadId, (event) => {
        // The chat moves to the fork once the fork is stored.
        if (event.type === 'checkpoint:saved' && event.threadId === next.threadId) next.commit();
        onEvent(event);
      });
      return ctx.caller.threads
        .run(fork, { signal })
        .then(({ result }) => result)
        .finally(unsubscribe);
    },
    {
      threadId: next.threadId,
      messageId: answerId(userId),
      skeinData: ctx.skeinData,
      guardedText: ctx.guardedText,
    },
  );
}

/**
 * Starts the run a `useChat` POST asks for, or refuses it before anything is stored: a chat of
 * another caller is 404, as one that is not there. `joined`: the request shares its chat's claim
 * with others of this process (see `ChatRuns.hold`).
 */
export async function startChatRun(
  ctx: ChatRunContext,
  request: ChatRequest,
  joined = false,
): Promise<UIRun> {
  const threadId = await ctx.threads.current(request.chatId);
  const inbox = request.kind === 'message' ? await inboxOf(ctx, threadId) : [];
  const thread = await ctx.engine.getThread(threadId);
  checkChatOwner(request.chatId, ctx.caller.principal, thread);
  if (request.kind === 'message') {
    const taken = thread?.state.inboxTaken ?? 0;
    const waiting = inbox.filter((p) => p.seq > taken);
    return sendMessage(ctx, request, threadId, thread, waiting, joined);
  }
  if (!thread) throw chatNotFound(request.chatId);
  return request.kind === 'approval'
    ? resumeApprovals(ctx, request, thread)
    : regenerate(ctx, request, thread);
}
