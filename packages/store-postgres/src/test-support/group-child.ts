// A process saving checkpoints of many threads at once, group after group, until it is killed:
//   node --import tsx group-child.ts <connection string> <schema> <threads>
// Prints `saved <checkpoint id>` as each save resolves.
import { PostgresCheckpointStore } from '../postgres-checkpoint-store.js';
import { makeCheckpoint } from './make-checkpoint.js';

const [connectionString, schema, threads] = process.argv.slice(2) as [string, string, string];
const store = new PostgresCheckpointStore({ connectionString, schema });
await store.migrate();
const count = Number(threads);
for (let sequence = 1; ; sequence++) {
  // Two messages per checkpoint, so a half-written one would show as rows its head does not cover.
  const messages = [
    { role: 'user', content: `question ${sequence}` },
    { role: 'assistant', content: `answer ${sequence}` },
  ];
  await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const checkpoint = makeCheckpoint(
        `t${i}`,
        sequence,
        { messages: (sequence - 1) * 2, log: 0 },
        messages,
      );
      return store.save(checkpoint).then(() => process.stdout.write(`saved ${checkpoint.id}\n`));
    }),
  );
}
