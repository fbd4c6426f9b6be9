// A separate process migrating a schema as it starts:
//   node --import tsx migrate-child.ts <connectionString> <schema>
// Prints `ready`, waits for a `go` line on stdin, migrates, prints `migrated <from> <to>`.
import { createInterface } from 'node:readline';
import { PostgresCheckpointStore } from '../postgres-checkpoint-store.js';

const [connectionString, schema] = process.argv.slice(2);
const store = new PostgresCheckpointStore({ connectionString: connectionString!, schema: schema! });
const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]();
process.stdout.write('ready\n');
await lines.next();
const { from, to } = await store.migrate();
process.stdout.write(`migrated ${from} ${to}\n`);
await store.close();
process.exit(0);
