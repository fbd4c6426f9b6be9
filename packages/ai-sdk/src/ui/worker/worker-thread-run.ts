import type { IfBusy, ThreadEvent, ThreadEventListener } from '@skein/core';
import { type MessageContent, SkeinError } from '@skein/spec';
import { type EndsAt, firstEnd, type RunEnd } from './answer-end.js';

/** One event as a worker client delivers it (`@skein/worker`'s `WorkerEvent`). */
export interface ChatWorkerEvent {
  readonly event: string;
  readonly data: object;
  readonly truncated?: { readonly bytes: number; readonly omitted: readonly string[] };
}

/**
 * What the worker-backed chat handler needs of `@skein/worker`'s `WorkerClient` (typed by use,
 * so this package does not depend on the worker).
 */
export interface ChatWorkerClient {
  sendMessage(
    threadId: string,
    message: {
      readonly content: MessageContent;
      readonly metadata?: Readonly<Record<string, unknown>>;
    },
    options?: {
      readonly workflowId?: string;
      readonly principal?: string;
      readonly ifBusy?: IfBusy;
      readonly sender?: string;
    },
  ): Promise<void>;
  resumeThread(
    threadId: string,
    input: unknown,
    options?: { readonly principal?: string },
  ): Promise<void>;
  cancelThread(threadId: string): Promise<void>;
  subscribe(threadId: string, listener: (event: ChatWorkerEvent) => void): Promise<() => unknown>;
}

/**
 * The engine event a worker event stands for. An `llm:response` whose message was left out to fit
 * NOTIFY's limit (a long answer) keeps its finish reason; its text came as tokens already.
 */
function toThreadEvent(event: ChatWorkerEvent): ThreadEvent {
  const data = event.data as Record<string, unknown>;
  if (event.event === 'llm:response' && data.message === undefined)
    return { type: 'llm:response', ...data, message: { role: 'assistant', content: '' } } as never;
  return { type: event.event, ...data } as ThreadEvent;
}

/**
 * Runs a thread on the worker fleet and hears its events there: subscribes to the thread, calls
 * `start` (which queues the job), and resolves once `endsAt` says the run ended (by default the
 * thread's first end: completed, failed, paused or cancelled), with how. An abort of `signal`
 * cancels the thread on whichever worker runs it.
 */
export async function runOnWorker(
  client: ChatWorkerClient,
  threadId: string,
  start: () => Promise<void>,
  onEvent: ThreadEventListener,
  signal: AbortSignal,
  endsAt: EndsAt = firstEnd,
): Promise<Exclude<RunEnd, 'go-on'>> {
  let end!: (how: Exclude<RunEnd, 'go-on'>) => void;
  let fail!: (error: unknown) => void;
  const ended = new Promise<Exclude<RunEnd, 'go-on'>>((resolve, reject) => {
    end = resolve;
    fail = reject;
  });
  const unsubscribe = await client.subscribe(threadId, (event) => {
    const data = event.data as { threadId?: unknown; code?: unknown; message?: unknown };
    if (data.threadId !== threadId) return;
    if (event.event === 'warning' && data.code === 'WORKER_RESUME_DROPPED') {
      fail(new SkeinError('WORKER_RESUME_DROPPED', String(data.message)));
      return;
    }
    try {
      onEvent(toThreadEvent(event));
    } catch (error) {
      fail(error);
    }
    const how = endsAt(event);
    if (how !== 'go-on') end(how);
  });
  const cancel = () => void client.cancelThread(threadId).catch(() => {});
  signal.addEventListener('abort', cancel, { once: true });
  try {
    await start();
    return await ended;
  } finally {
    signal.removeEventListener('abort', cancel);
    await unsubscribe();
  }
}
