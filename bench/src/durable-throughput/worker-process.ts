// One worker process of the durable-throughput suite:
// `node --import tsx worker-process.ts <pg url> <steps> <model delay ms>`. Prints "ready" once it
// takes jobs; stops on SIGTERM. Default concurrency, default store pool, events off.
import { PostgresCheckpointStore } from '@skein/store-postgres';
import { startBenchWorker } from './bench-worker.js';
import { modelStepsEngine } from './model-steps.js';

const [connectionString, steps, delayMs] = process.argv.slice(2) as [string, string, string];
const store = new PostgresCheckpointStore({ connectionString });
const engine = modelStepsEngine(store, Number(steps), Number(delayMs));
const worker = await startBenchWorker(engine, connectionString);
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void worker.stop().then(() => store.close());
});
