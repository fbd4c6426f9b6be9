// The durable suite's worker curve alone, repeated: 1, 2 and 4 worker processes on one embedded
// PostgreSQL, each running the suite's threads, as often as asked (a hang shows as a run that
// never prints). Usage: pnpm --filter @skein/bench workers [threads=1000] [repeats=3]
import { loadavg } from 'node:os';
import { startTestPostgres } from '@skein/store-postgres/testing';
import { DELAY_MS, IDEAL_MS, STEPS } from '../durable-throughput/store-rows.js';
import { workerCurve } from '../durable-throughput/workers.js';

const [threadsArg = '1000', repeatsArg = '3'] = process.argv.slice(2).filter((a) => a !== '--');
const threads = Number(threadsArg);
const server = await startTestPostgres();
try {
  for (let r = 1; r <= Number(repeatsArg); r++) {
    const curve = await workerCurve(
      await server.createDatabase(),
      threads,
      STEPS,
      DELAY_MS,
      [1, 2, 4],
    );
    const figures = [...curve].map(([n, ms]) => `${n}p ${(ms / IDEAL_MS).toFixed(2)}x`);
    console.log(
      `run ${r}, ${threads} threads: ${figures.join(', ')}; load ${loadavg()[0]!.toFixed(1)}`,
    );
  }
} finally {
  await server.stop();
}
