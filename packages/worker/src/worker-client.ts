import { randomUUID } from 'node:crypto';
import { checkThreadId, InvalidArgumentError, type LLMMessage } from '@skein/spec';
import { runMigrations } from 'graphile-worker';
import {
  type ConnectionOptions,
  type QueueOptions,
  type ResolvedQueue,
  resolveQueue,
} from './connection-options.js';
import { databaseError, onDatabase } from './database-errors.js';
import { UnknownThreadError } from './errors/unknown-thread-error.js';
import { WorkerClosedError } from './errors/worker-closed-error.js';
import {
  encodeThreadJob,
  type IfBusy,
  type SentUserMessage,
  type ThreadJob,
} from './job-payload.js';
import { ListenConnection } from './listen-connection.js';
import { parseSignalJob, SIGNAL_TASK } from './signal-job.js';
import {
  cancelChannel,
  quoteIdentifier,
  signalQueue,
  THREAD_TASK,
  threadChannel,
} from './sql-names.js';
import type { WorkerEvent, WorkerEventListener } from './worker-event.js';
import { migrateWorkerSchema } from './worker-schema.js';

export type WorkerClientOptions = ConnectionOptions & QueueOptions;

export interface EnqueueOptions {
  /**
   * The new thread's id (default a random UUID): 1 to 256 characters, no control characters.
   * Enqueueing an id again is a no-op.
   */
  readonly threadId?: string;
  readonly variables?: Readonly<Record<string, unknown>>;
  /** Messages the thread starts with (a system prompt), before `input`. */
  readonly messages?: readonly LLMMessage[];
  /**
   * Whose thread it is (a user id, a token's subject): kept in its state for good, carried by
   * its forks and child threads (see `BuildThreadOptions.principal` in `@skein/core`).
   */
  readonly principal?: string;
}

/** Options of `sendMessage`. */
export interface SendMessageOptions extends CallerOptions {
  /** The workflow of a new thread (default `chat`). */
  readonly workflowId?: string;
  /**
   * When the thread is busy (a turn runs on some worker, it waits on time or an event, or for
   * tool approvals): `queue` (default) for the turn after, `steer` into the running turn before
   * its next model call, `interrupt` it at its next safe point, or `reject` (the job ends
   * `rejected`, `THREAD_BUSY`, and a `warning` event says so; nothing is stored). See
   * `engine.send`.
   */
  readonly ifBusy?: IfBusy;
  /** The message's id in the thread's inbox (1 to 256 characters; default from the job's id). */
  readonly messageId?: string;
  /**
   * Who sends it (a thread id's rules): one sender's messages are posted one at a time in the
   * order they were queued. Messages without a sender share one order per thread.
   */
  readonly sender?: string;
}

/** The graphile-worker queue a sender's send jobs for a thread go through, one at a time. */
function sendQueue(threadId: string, sender: string | undefined): string {
  return sender === undefined ? `skein_send:${threadId}` : `skein_send:${threadId}:${sender}`;
}

/** Who sends a message or an answer: a thread of another principal, or of none, is not touched. */
export interface CallerOptions {
  /** The caller's principal (as `engine.forPrincipal(principal)` would act). */
  readonly principal?: string;
}

/** Stops a subscription; resolves once its LISTEN is dropped. */
export type Unsubscribe = () => Promise<void>;

/**
 * The queue as any process sees it (an API server, a CLI, a worker): start, resume and cancel
 * threads, and follow their events. Nothing here runs a thread; workers do.
 */
export class WorkerClient {
  /** @internal */
  readonly queue: ResolvedQueue;
  /** @internal */
  readonly listener: ListenConnection;
  #ready: Promise<void> | undefined;
  #closed = false;

  constructor(options: WorkerClientOptions, poolSize = 4) {
    this.queue = resolveQueue(options, poolSize);
    this.listener = new ListenConnection(this.queue.clientConfig, (error) =>
      this.queue.log('warning', `LISTEN connection failed, reconnecting: ${error.message}`),
    );
  }

  /**
   * Creates graphile-worker's schema and the worker's tables if missing (idempotent,
   * concurrent-safe). Database failures reject with `WorkerDatabaseError`.
   */
  migrate(): Promise<void> {
    this.#ready ??= onDatabase('migrate the queue', async () => {
      await runMigrations({
        pgPool: this.queue.pool,
        schema: this.queue.graphileSchema,
        logger: this.queue.logger,
      });
      await migrateWorkerSchema(this.queue.pool, this.queue.schema);
    });
    const ready = this.#ready;
    ready.catch(() => {
      if (this.#ready === ready) this.#ready = undefined;
    });
    return ready;
  }

  #check(operation: string): void {
    if (this.#closed) throw new WorkerClosedError(operation);
  }

  async #addJobs(
    operation: string,
    jobs: readonly ThreadJob[],
    queueName?: string,
    before?: (
      query: (text: string, values: unknown[]) => Promise<{ rowCount: number | null }>,
    ) => Promise<void>,
  ): Promise<void> {
    const payloads = jobs.map(encodeThreadJob);
    await this.migrate();
    const { pool, graphileSchema, maxAttempts } = this.queue;
    await onDatabase(operation, async () => {
      const client = await pool.connect();
      let failed: unknown;
      try {
        await client.query('begin');
        await before?.((text, values) => client.query(text, values));
        for (const payload of payloads)
          await client.query(
            `select ${quoteIdentifier(graphileSchema)}.add_job($1, $2::json, max_attempts => $3,
                                                             queue_name => $4)`,
            [THREAD_TASK, payload, maxAttempts, queueName ?? null],
          );
        await client.query('commit');
      } catch (error) {
        failed = error;
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        // A connection that failed mid-transaction is closed, not handed to the next caller.
        client.release(failed instanceof Error ? failed : undefined);
      }
    });
  }

  /**
   * Whether this process runs `workflowId` itself (a worker with it registered): then it may be
   * enqueued before the fleet's registry lists it.
   * @internal
   */
  protected serves(_workflowId: string): boolean {
    return false;
  }

  /**
   * Queues a new thread of `workflowId`; resolves to its id once the job is committed. A worker
   * that has the workflow registered builds and runs it. Rejects, with nothing enqueued, with
   * `InvalidArgumentError` for a job no worker could run (a bad thread id, messages a thread would
   * refuse, input or variables no store can hold), and with `WorkerDatabaseError` when the
   * database fails
   * (`WORKER_DATABASE_UNAVAILABLE`, retryable, while it is unreachable).
   */
  async enqueueThread(
    workflowId: string,
    input?: unknown,
    options: EnqueueOptions = {},
  ): Promise<string> {
    this.#check('enqueue a thread');
    const threadId =
      options.threadId === undefined ? randomUUID() : checkThreadId(options.threadId);
    const job: ThreadJob = {
      op: 'start',
      threadId,
      workflowId,
      ...(input === undefined ? {} : { input }),
      ...(options.variables ? { variables: options.variables } : {}),
      ...(options.messages ? { messages: options.messages } : {}),
      ...(options.principal === undefined ? {} : { principal: options.principal }),
    };
    const payload = encodeThreadJob(job);
    const serves = this.serves(workflowId);
    await this.migrate();
    const { pool, schema, graphileSchema, maxAttempts } = this.queue;
    const s = quoteIdentifier(schema);
    // One statement, so one round trip and atomic: the job is added only with a new thread row.
    // A workflow no worker has registered yet is taken: workers may start after the client.
    await onDatabase('enqueue a thread', () =>
      pool.query(
        `with served as (
           insert into ${s}.workflows (workflow_id) select $2 where $6::boolean
           on conflict do nothing
         ), inserted as (
           insert into ${s}.threads (thread_id, workflow_id) values ($1, $2)
           on conflict do nothing returning thread_id
         )
         select ${quoteIdentifier(graphileSchema)}.add_job($3, $4::json, max_attempts => $5)
           from inserted`,
        [threadId, workflowId, THREAD_TASK, payload, maxAttempts, serves],
      ),
    );
    return threadId;
  }

  async #known(threadId: string, operation: string): Promise<void> {
    await this.migrate();
    const { rowCount } = await onDatabase(`${operation} a thread`, () =>
      this.queue.pool.query(
        `select 1 from ${quoteIdentifier(this.queue.schema)}.threads where thread_id = $1`,
        [threadId],
      ),
    );
    if (rowCount === 0) throw new UnknownThreadError(threadId, operation);
  }

  /**
   * Queues the input a paused thread waits for. A worker resumes the thread once it is at rest;
   * input for a thread that is not paused by then is dropped with a `warning` event. With
   * `principal`, a thread of another principal (or of none) is not resumed: the job fails for
   * good as `CHECKPOINT_NOT_FOUND`, with no event on the thread.
   */
  async resumeThread(threadId: string, input: unknown, options: CallerOptions = {}): Promise<void> {
    this.#check('resume a thread');
    checkThreadId(threadId);
    const job: ThreadJob = {
      op: 'resume',
      threadId,
      input: input ?? null,
      ...(options.principal === undefined ? {} : { principal: options.principal }),
    };
    // Checked before anything is read, so a bad input leaves the queue untouched.
    encodeThreadJob(job);
    await this.#known(threadId, 'resume');
    await this.#addJobs('resume a thread', [job]);
  }

  /**
   * Queues a user message for the thread (`engine.send` on whichever worker takes it): its text,
   * or `{ content: parts, metadata? }` (parts by `checkContent`'s rules, each attachment at most
   * `DEFAULT_MAX_ATTACHMENT_BYTES`; a `Uint8Array` is written to the job as base64, and a bad
   * part is an `InvalidArgumentError` naming it, `message.content[1]`, with nothing queued). A new
   * thread of `options.workflowId` (default `chat`), the answer a pause for input waits for, or
   * the next turn of a thread that ended. Sent once, even when the job runs twice; a thread that
   * runs now gets it once the run is at rest. Resolves once the job is committed. With
   * `principal`, the worker sends as `engine.forPrincipal(principal)`: a new thread is that
   * principal's, and a thread of another (or of none) gets nothing (the job fails for good as
   * `CHECKPOINT_NOT_FOUND`).
   */
  async sendMessage(
    threadId: string,
    message: string | SentUserMessage,
    options: SendMessageOptions = {},
  ): Promise<void> {
    this.#check('send a message');
    checkThreadId(threadId);
    const job: ThreadJob = {
      op: 'send',
      threadId,
      message: typeof message === 'string' ? { content: message } : message,
      ...(options.workflowId === undefined ? {} : { workflowId: options.workflowId }),
      ...(options.principal === undefined ? {} : { principal: options.principal }),
      ...(options.ifBusy === undefined ? {} : { ifBusy: options.ifBusy }),
      ...(options.messageId === undefined ? {} : { messageId: options.messageId }),
      ...(options.sender === undefined ? {} : { sender: options.sender }),
    };
    const s = quoteIdentifier(this.queue.schema);
    await this.#addJobs(
      'send a message',
      [job],
      sendQueue(threadId, options.sender),
      async (query) => {
        // Known from now on, so it can be resumed and cancelled like an enqueued thread.
        await query(
          `insert into ${s}.threads (thread_id, workflow_id) values ($1, $2) on conflict do nothing`,
          [threadId, options.workflowId ?? 'chat'],
        );
      },
    );
  }

  /**
   * Cancels a thread wherever it is: a running worker aborts it within moments (NOTIFY), a queued
   * or paused one ends CANCELLED when a worker next takes it. Final: the thread never runs again.
   */
  async cancelThread(threadId: string): Promise<void> {
    this.#check('cancel a thread');
    checkThreadId(threadId);
    await this.#known(threadId, 'cancel');
    const s = quoteIdentifier(this.queue.schema);
    await this.#addJobs(
      'cancel a thread',
      [{ op: 'advance', threadId }],
      undefined,
      async (query) => {
        await query(
          `insert into ${s}.cancellations (thread_id) values ($1) on conflict do nothing`,
          [threadId],
        );
        // Delivered when the transaction commits, together with the job.
        await query('select pg_notify($1, $2)', [cancelChannel(this.queue.schema), threadId]);
      },
    );
  }

  /**
   * Queues an outside event (`engine.signal(name, payload)` on whichever worker takes it): every
   * thread WAITING for `name` whose match holds gets it, exactly once per thread, even if the
   * job runs twice. Events of one name are delivered one at a time in the order they were queued
   * (one graphile-worker queue per name), so a thread takes the first that matches; a delivery
   * that fails (the database) is retried after later ones. Resolves once the job is committed;
   * no worker needs to be up now.
   */
  async signal(name: string, payload: unknown = null): Promise<void> {
    this.#check('send a signal');
    const job = parseSignalJob({ name, payload });
    if (job instanceof InvalidArgumentError) throw job;
    await this.migrate();
    const { pool, graphileSchema, maxAttempts } = this.queue;
    await onDatabase('send a signal', () =>
      pool.query(
        `select ${quoteIdentifier(graphileSchema)}.add_job($1, $2::json,
                  queue_name => $3, max_attempts => $4)`,
        [SIGNAL_TASK, JSON.stringify(job), signalQueue(job.name), maxAttempts],
      ),
    );
  }

  /**
   * Calls `listener` with every event workers emit for the thread from now on (LISTEN/NOTIFY, no
   * polling). Resolves once listening, so nothing emitted after that is missed.
   */
  async subscribe(threadId: string, listener: WorkerEventListener): Promise<Unsubscribe> {
    this.#check('subscribe to a thread');
    checkThreadId(threadId);
    try {
      return await this.listener.listen(threadChannel(this.queue.schema, threadId), (payload) => {
        listener(JSON.parse(payload) as WorkerEvent);
      });
    } catch (error) {
      throw databaseError(error, 'subscribe to a thread');
    }
  }

  /** Closes the LISTEN connection, and the pool when the client opened it. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.listener.close();
    if (this.queue.ownsPool) await this.queue.pool.end();
  }
}

/** A client for the queue at `connectionString` (or on `pool`). */
export function createWorkerClient(options: WorkerClientOptions): WorkerClient {
  return new WorkerClient(options);
}
