// A dataset run in its own process, for the SIGKILL test: node --import tsx crash-child.ts
// <db file> <run folder> <input file> <tool-call log> <concurrency>
import { appendFileSync } from 'node:fs';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { runDataset } from '../run/run-dataset.js';
import { qaEngine } from './qa-engine.js';

const [filename, output, input, callLog, concurrency] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
];
const store = new SqliteCheckpointStore({ filename });
const summary = await runDataset({
  engine: qaEngine({
    store,
    toolDelayMs: 2,
    // The killed process's leases hold its threads until they expire: short, so the rerun's
    // wait for them stays short.
    leaseMs: 1_000,
    onToolCall: (threadId) => appendFileSync(callLog, `${threadId}\n`),
  }),
  workflowId: 'qa',
  input,
  itemId: 'id',
  threadOptions: (item) => ({ input: (item as { q: string }).q }),
  output,
  runId: 'crash',
  concurrency: Number(concurrency),
  exports: { fineTuning: true },
  onProgress: (p) => process.stdout.write(`done ${p.done}\n`),
});
store.close();
process.stdout.write(`summary ${JSON.stringify(summary)}\n`);
