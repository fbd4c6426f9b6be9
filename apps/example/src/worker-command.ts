import { randomUUID } from 'node:crypto';
import { SkeinEngine, type ThreadContext } from '@skein/core';
import { registerTools } from '@skein/interop';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { createWorker, createWorkerClient, type WorkerEvent } from '@skein/worker';
import pc from 'picocolors';
import { startMcpTools } from './mcp-tools.js';
import { createModel } from './model.js';
import { shownUrl } from './open-store.js';
import { currency, initialTools } from './tools.js';
import { itineraryWorkflow, SYSTEM_PROMPT, travelWorkflow } from './workflow.js';

type Write = (text: string) => void;

export interface WorkerCommandOptions {
  /** PostgreSQL connection string: the queue and the checkpoints. */
  readonly store: string;
  readonly concurrency?: number;
  /** Stops the worker (Ctrl-C, SIGTERM): running threads finish or are handed back. */
  readonly signal: AbortSignal;
  readonly slowMs?: number;
  readonly write?: Write;
}

/**
 * `skein-example worker --store <postgres url>`: runs travel-assistant threads from the queue
 * until stopped. Start it in several terminals; `enqueue` (below) from another one.
 */
export async function runWorkerCommand(options: WorkerCommandOptions): Promise<number> {
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const store = new PostgresCheckpointStore({ connectionString: options.store });
  await store.migrate();
  const model = await createModel(options.slowMs ? { chunkDelayMs: options.slowMs } : {});
  // Each worker runs its own MCP weather server, as the single-process app does.
  const mcp = await startMcpTools();
  try {
    const engine = new SkeinEngine({ llm: model.llm, store });
    registerTools(engine.tools, [...initialTools, currency, ...mcp.tools], { onConflict: 'error' });
    engine.registerWorkflow(itineraryWorkflow());
    engine.registerWorkflow(travelWorkflow());
    // As in the single-process app: the currency tool is added once the plan is made. A thread
    // object lives in one worker at a time, so the worker hands each one over before it runs.
    const threads = new Map<string, ThreadContext>();
    engine.events.on('node:completed', (e) => {
      if (e.nodeId === 'plan') threads.get(e.threadId)?.addDynamicTools([currency]);
    });
    for (const end of [
      'thread:paused',
      'thread:completed',
      'thread:failed',
      'thread:cancelled',
    ] as const)
      engine.events.on(end, (e) => {
        threads.delete(e.threadId);
      });
    const worker = await createWorker({
      engine,
      connectionString: options.store,
      concurrency: options.concurrency ?? 4,
      handleSignals: false,
      prepareThread: (thread) => threads.set(thread.threadId, thread),
      onJob: (threadId, outcome) => {
        const what =
          outcome.kind === 'ran'
            ? `${outcome.result.status.toLowerCase()}${outcome.from === 'checkpoint' ? ' (went on from its last checkpoint)' : ''}`
            : outcome.kind === 'idle'
              ? `nothing to do: ${outcome.reason}`
              : outcome.kind;
        write(`  ${pc.cyan(threadId)} ${what}\n`);
      },
    });
    write(
      `${pc.bold('Skein worker')} ${process.pid}: travel threads from ${shownUrl(options.store)}, model: ${model.label}\n`,
    );
    if (!options.signal.aborted)
      await new Promise((resolve) =>
        options.signal.addEventListener('abort', resolve, { once: true }),
      );
    write(pc.dim('stopping: running threads finish or go back to the queue\n'));
    await worker.stop();
    return 0;
  } finally {
    await mcp.close();
    await model.close();
    await store.close();
  }
}

export interface EnqueueCommandOptions {
  readonly store: string;
  readonly request: string;
  readonly traveller: string;
  readonly tier: string;
  readonly currency: string;
  readonly threadId?: string;
  /** Continue this paused thread with `answer` instead of starting one. */
  readonly resume?: string;
  /** The answer to the confirmation question, sent when the thread pauses. */
  readonly answer?: string;
  readonly signal: AbortSignal;
  readonly write?: Write;
}

const ENDS = new Set(['thread:completed', 'thread:failed', 'thread:cancelled']);

function describeEvent(event: WorkerEvent): string | undefined {
  switch (event.event) {
    case 'node:started':
      return `  ${pc.dim('node')} ${event.data.nodeId}`;
    case 'tool:call':
      return `  ${pc.dim('tool')} ${event.data.name} ${pc.dim(event.data.arguments)}`;
    case 'thread:paused':
      return `${pc.blue('?')} ${event.data.prompt ?? 'waiting for input'}`;
    case 'thread:completed':
      return `${pc.green('completed')} ${JSON.stringify(event.data.output ?? null)}`;
    case 'thread:failed':
    case 'thread:cancelled':
      return `${pc.red(event.event.slice(7))} ${event.data.error?.message ?? ''}`;
    default:
      return undefined;
  }
}

/**
 * `skein-example enqueue --store <postgres url>`: queues a travel thread (or resumes one with
 * `--resume <id> --answer <text>`) and prints its progress as the workers run it, from whichever
 * worker that is. Exit code 0 when the thread completed or waits for an answer.
 */
export async function enqueueCommand(options: EnqueueCommandOptions): Promise<number> {
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const client = createWorkerClient({ connectionString: options.store });
  try {
    const threadId = options.resume ?? options.threadId ?? randomUUID();
    let settle: (event: WorkerEvent | undefined) => void = () => {};
    const next = () =>
      new Promise<WorkerEvent | undefined>((resolve) => {
        settle = resolve;
      });
    const stopped = () => settle(undefined);
    options.signal.addEventListener('abort', stopped, { once: true });
    await client.subscribe(threadId, (event) => {
      const line = describeEvent(event);
      if (line) write(`${line}\n`);
      if (event.event === 'thread:paused' || ENDS.has(event.event)) settle(event);
    });
    let answer = options.answer;
    let waiting = next();
    if (options.resume !== undefined) {
      if (answer === undefined) {
        write('--resume needs --answer: the text the paused thread waits for\n');
        return 2;
      }
      await client.resumeThread(threadId, answer);
      answer = undefined;
    } else {
      await client.enqueueThread('travel-assistant', options.request, {
        threadId,
        messages: [{ role: 'system', content: SYSTEM_PROMPT }],
        variables: { traveller: options.traveller, tier: options.tier, currency: options.currency },
      });
    }
    write(`${pc.bold('queued')} thread ${pc.cyan(threadId)}\n`);
    for (;;) {
      const event = await waiting;
      if (!event) return 130;
      if (ENDS.has(event.event)) return event.event === 'thread:completed' ? 0 : 1;
      if (answer === undefined) {
        write(
          pc.dim(
            `answer it from any process: enqueue --store <url> --resume ${threadId} --answer yes\n`,
          ),
        );
        return 0;
      }
      waiting = next();
      await client.resumeThread(threadId, answer);
      answer = undefined;
    }
  } finally {
    await client.close();
  }
}
