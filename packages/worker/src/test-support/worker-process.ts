// A worker process for the multi-process tests: `node --import tsx worker-process.ts <pg url>`.
// Prints "ready" once it takes jobs; stops gracefully on SIGTERM.
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { createWorker } from '../index.js';
import { scriptedModel, testEngine } from './test-engine.js';

const connectionString = process.argv[2]!;
const delayMs = Number(process.argv[3] ?? '20');
const store = new PostgresCheckpointStore({ connectionString, maxConnections: 6 });
const worker = await createWorker({
  // A killed worker's lease must expire before another worker may go on with its threads: keep
  // it near staleAfterMs, as a fleet that wants fast takeovers would.
  engine: testEngine(store, scriptedModel(delayMs), { leaseMs: 2_000 }),
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
