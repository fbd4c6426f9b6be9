import { conversationSuite } from './conversation.bench.js';
import { durableSqliteSuite } from './durable-sqlite.bench.js';
import { durableThroughputSuite } from './durable-throughput.bench.js';
import { durableTimeSuite } from './durable-time.bench.js';
import { engineSuite } from './engine.bench.js';
import { fanOutSuite } from './fan-out.bench.js';
import { interopBench } from './interop.bench.js';
import { openaiStreamSuite } from './openai-stream.bench.js';
import { otelSuite } from './otel.bench.js';
import { runnerSuite } from './runner.bench.js';
import { runnerScoresSuite } from './runner-scores.bench.js';
import { storePostgresSuite } from './store-postgres.bench.js';
import type { BenchSuite } from './suite.js';
import { toolbenchSuite } from './toolbench.bench.js';
import { uiStreamSuite } from './ui-stream.bench.js';
import { workerSuite } from './worker.bench.js';

// Each issue's benchmark is one suite in its own file; register it here.
export const suites: BenchSuite[] = [
  conversationSuite,
  engineSuite,
  openaiStreamSuite,
  toolbenchSuite,
  interopBench,
  fanOutSuite,
  otelSuite,
  storePostgresSuite,
  workerSuite,
  runnerSuite,
  runnerScoresSuite,
  durableThroughputSuite,
  durableSqliteSuite,
  durableTimeSuite,
  uiStreamSuite,
];
