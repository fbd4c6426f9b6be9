// A worker process for the multi-process tests:
// `node --import tsx worker-process.ts <pg url> [model delay ms] [hold folder]`.
// Prints "ready" once it takes jobs; stops gracefully on SIGTERM.
// With a hold folder, the first process to ask the model for `step 1` of a thread whose task is
// `task hold-<n>` writes the marker `<hold folder>/hold-<n>`, prints "holding hold-<n>" and holds
// that call until it is killed: a run is then certainly in flight on it, past its first
// checkpoints. The process that takes the thread over finds the marker and answers as usual.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LLMRequest } from '@skein/spec';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { createWorker } from '../index.js';
import { scriptedModel, testEngine } from './test-engine.js';

const connectionString = process.argv[2]!;
const delayMs = Number(process.argv[3] ?? '20');
const holdFolder = process.argv[4];

function holds(request: LLMRequest): boolean {
  if (holdFolder === undefined) return false;
  const task = request.messages.find((m) => m.role === 'user')?.content;
  const held = typeof task === 'string' ? /^task (hold-\d+)$/.exec(task)?.[1] : undefined;
  const last = request.messages.at(-1);
  if (held === undefined || last?.role !== 'user' || last.content !== 'step 1') return false;
  try {
    // `wx`: only the first process to get here holds; the one that takes over answers.
    writeFileSync(join(holdFolder, held), String(process.pid), { flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  process.stdout.write(`holding ${held}\n`);
  return true;
}

const store = new PostgresCheckpointStore({ connectionString, maxConnections: 6 });
const worker = await createWorker({
  // A killed worker's lease must expire before another worker may go on with its threads: keep
  // it near staleAfterMs, as a fleet that wants fast takeovers would.
  engine: testEngine(store, scriptedModel(delayMs, holds), { leaseMs: 2_000 }),
  connectionString,
  concurrency: 4,
  staleAfterMs: 1_000,
  recoveryIntervalMs: 500,
  shutdownTimeoutMs: 2_000,
  onJob: (threadId, outcome) => {
    // A thread this worker took over from a checkpoint another worker left (a kill).
    if (outcome.kind === 'ran' && outcome.from === 'checkpoint')
      process.stdout.write(`took-over ${threadId} ${performance.timeOrigin + performance.now()}\n`);
  },
  log: (level, message) => {
    if (level === 'error') process.stderr.write(`worker ${process.pid}: ${message}\n`);
  },
});
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void worker.stop().then(() => store.close());
});
