// A separate process resuming a paused thread through the engine:
//   node --import tsx resume-child.ts <connectionString> <schema> <threadId> <answer>
// Loads the thread, prints `ready`, waits for a `go` line on stdin, resumes it with <answer> and
// prints `done <status> <output JSON>`, or `refused <code>` when its checkpoint is refused.
import { createInterface } from 'node:readline';
import { SkeinError } from '@skein/spec';
import { PostgresCheckpointStore } from '../postgres-checkpoint-store.js';
import { askEngine } from './ask-workflow.js';

const [connectionString, schema, threadId, answer] = process.argv.slice(2);
const store = new PostgresCheckpointStore({ connectionString: connectionString!, schema: schema! });
const engine = askEngine(store);
const thread = await engine.loadThread(threadId!);
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
process.stdout.write('ready\n');
await lines.next();
try {
  const { result } = await engine.resume(thread, answer!);
  process.stdout.write(`done ${result.status} ${JSON.stringify(result.output)}\n`);
} catch (error) {
  if (!SkeinError.isInstance(error)) throw error;
  process.stdout.write(`refused ${error.code}\n`);
}
await store.close();
process.exit(0);
