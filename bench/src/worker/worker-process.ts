// One worker process of the worker benchmark:
// `node --import tsx worker-process.ts <pg url> <concurrency> <all|end>` (which events to send).
// Prints "ready" once it takes jobs; stops on SIGTERM.
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { createWorker } from '@skein/worker';
import { twentyStepEngine } from './twenty-steps.js';

const [connectionString, concurrency, events] = process.argv.slice(2) as [string, string, string];
const store = new PostgresCheckpointStore({
  connectionString,
  maxConnections: Number(concurrency) + 2,
});
const engine = twentyStepEngine(store);
// For the latency rows: when the first node of a latency thread started, on the shared clock.
engine.events.on('node:started', ({ threadId, nodeId }) => {
  if (nodeId === 'start' && threadId.startsWith('latency-'))
    process.stdout.write(`started ${threadId} ${performance.timeOrigin + performance.now()}\n`);
});
const worker = await createWorker({
  engine,
  connectionString,
  concurrency: Number(concurrency),
  handleSignals: false,
  ...(events === 'end' ? { events: ['thread:completed'] as const } : {}),
  log: (level, message) => {
    if (level === 'error') process.stderr.write(`bench worker: ${message}\n`);
  },
});
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void worker.stop().then(() => store.close());
});
