// A process saving checkpoints of many threads at once, group after group, until it is killed:
//   node --import tsx group-child.ts <connection string> <schema> <threads>
// Prints `saved <checkpoint id>` as each save resolves.
import { saveGroupsUntilKilled } from '@skein/core/testing';
import { PostgresCheckpointStore } from '../postgres-checkpoint-store.js';

const [connectionString, schema, threads] = process.argv.slice(2) as [string, string, string];
const store = new PostgresCheckpointStore({ connectionString, schema });
await store.migrate();
await saveGroupsUntilKilled(store, Number(threads), {
  saved: (id) => process.stdout.write(`saved ${id}\n`),
});
