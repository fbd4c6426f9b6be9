// One worker process of the durable-time suite:
// `node --expose-gc --import tsx worker-process.ts <pg url> [<event> <count>]`. Default
// concurrency and store pool, only thread:completed sent (as durable-throughput's workers).
// Prints "ready <started> <ready>" (epoch ms: when createWorker was called and when it resolved).
// With <event> <count> (thread:paused or thread:completed), it counts from before createWorker
// (jobs already queued are taken at once) and prints "reached <event> <count> <epoch ms>" at the
// count-th. Commands on stdin: "expect <event> <count>" (counts from now), "rss" (after two full
// GCs, prints "rss <rss bytes> <heap used bytes>"). Stops on SIGTERM.
import { createInterface } from 'node:readline';
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { startBenchWorker } from '../durable-throughput/bench-worker.js';
import { napEngine } from './nap.js';

type Counted = 'thread:paused' | 'thread:completed';

const [connectionString, firstEvent, firstCount] = process.argv.slice(2) as [
  string,
  Counted | undefined,
  string | undefined,
];
const clock = () => performance.timeOrigin + performance.now();
const store = new PostgresCheckpointStore({ connectionString });
const engine = napEngine(store);

let expecting: { event: Counted; count: number; seen: number } | undefined;
function expect(event: Counted, count: number): void {
  expecting = { event, count, seen: 0 };
}
for (const event of ['thread:paused', 'thread:completed'] as const)
  engine.events.on(event, () => {
    if (expecting?.event !== event || ++expecting.seen !== expecting.count) return;
    process.stdout.write(`reached ${event} ${expecting.count} ${clock()}\n`);
    expecting = undefined;
  });
if (firstEvent && firstCount) expect(firstEvent, Number(firstCount));

const started = clock();
const worker = await startBenchWorker(engine, connectionString);
process.stdout.write(`ready ${started} ${clock()}\n`);

const gc = (globalThis as { gc?: () => void }).gc;
createInterface({ input: process.stdin }).on('line', (line) => {
  const [command, event, count] = line.trim().split(' ');
  if (command === 'expect') expect(event as Counted, Number(count));
  else if (command === 'rss') {
    // Settle first: let pending callbacks run, then collect twice (weak refs, finalizers).
    setTimeout(() => {
      gc?.();
      gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      process.stdout.write(`rss ${rss} ${heapUsed}\n`);
    }, 200);
  }
});
process.once('SIGTERM', () => {
  void worker.stop().then(async () => {
    await store.close();
    process.exit(0);
  });
});
