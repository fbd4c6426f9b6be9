// One process of the fleet budget test: runs a dataset against an OpenAI-compatible server with
// its model held to a PostgresRateBudget that the other process shares.
// node --import tsx fleet-child.ts <postgres url> <model url> <run id> <run folder> <items> <go file>
// Prints `ready` once it can draw on the budget and starts when <go file> exists, so that both
// processes run at the same time.
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { createOpenAIClient } from '@skein/openai';
import { createRateBudget } from '@skein/worker';
import { runDataset } from '../run/run-dataset.js';
import { qaEngine } from './qa-engine.js';

const [connectionString, baseURL, runId, output, items, go] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
// Both processes give the same limits for the name, as the budget's documentation asks.
const budget = createRateBudget({ connectionString, name: 'fleet', rpm: 240, burstSeconds: 0.5 });
await budget.migrate();
process.stdout.write('ready\n');
while (!existsSync(go)) await sleep(10);
const summary = await runDataset({
  engine: ({ limitModel }) =>
    qaEngine({ llm: limitModel(createOpenAIClient({ baseURL, apiKey: 'k', model: 'm' })) }),
  workflowId: 'qa',
  input: Array.from({ length: Number(items) }, (_, i) => `${runId} ${i}`),
  output,
  runId,
  concurrency: 4,
  limiter: budget,
});
await budget.close();
process.stdout.write(`summary ${JSON.stringify(summary)}\n`);
