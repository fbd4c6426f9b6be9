// A worker process for the database outage test:
// `node --import tsx outage-worker-process.ts <pg url> <gate url> <label>`. Its `gated` threads
// wait at the test's gate server. Prints "ready" once it takes jobs, then one line per job
// (`job <thread> <outcome> [<status>]`) and per failed run (`failed <thread> <code>`); stops
// gracefully on SIGTERM.
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { createWorker } from '../index.js';
import { gatedWorkflow, gateTool, testEngine } from './test-engine.js';

const [connectionString, gateUrl, label] = process.argv.slice(2) as [string, string, string];
const store = new PostgresCheckpointStore({ connectionString, maxConnections: 6 });
// The lease outlasts the outage (the lease is renewed every third of it once the database is
// back), so a takeover attempt always finds the thread's first run alive.
const engine = testEngine(store, undefined, { leaseMs: 30_000 });
engine.registerTool(
  gateTool(async (threadId) => {
    const response = await fetch(`${gateUrl}/${encodeURIComponent(threadId)}?worker=${label}`);
    return response.text();
  }),
);
engine.registerWorkflow(gatedWorkflow());
engine.events.on('thread:failed', (data) => {
  process.stdout.write(`failed ${data.threadId} ${data.error?.code}\n`);
});
const worker = await createWorker({
  engine,
  connectionString,
  concurrency: 4,
  staleAfterMs: 1_000,
  recoveryIntervalMs: 500,
  shutdownTimeoutMs: 2_000,
  handleSignals: false,
  onJob: (threadId, outcome) => {
    const status = outcome.kind === 'ran' ? ` ${outcome.result.status}` : '';
    process.stdout.write(`job ${threadId} ${outcome.kind}${status}\n`);
  },
  // Outage warnings are expected; SKEIN_TEST_WORKER_LOG=1 shows them.
  log: (level, message) => {
    if (process.env.SKEIN_TEST_WORKER_LOG) process.stderr.write(`${label} ${level}: ${message}\n`);
  },
});
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void worker.stop().then(() => store.close());
});
