import type { SkeinEngine } from '@skein/core';
import { createWorker, type SkeinWorker } from '@skein/worker';

/**
 * A worker as the durable suites run one (so their rates compare): default concurrency, only
 * thread:completed sent, errors to stderr.
 */
export function startBenchWorker(
  engine: SkeinEngine,
  connectionString: string,
): Promise<SkeinWorker> {
  return createWorker({
    engine,
    connectionString,
    handleSignals: false,
    events: ['thread:completed'],
    log: (level, message) => {
      if (level === 'error') process.stderr.write(`bench worker: ${message}\n`);
    },
  });
}
