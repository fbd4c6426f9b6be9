// A process saving checkpoints of many threads at once, group after group, until it is killed:
//   node --import tsx run-group-child.ts <filename> <threads>
// Prints `saved <checkpoint id>` as each save resolves, and `ready` once the first group is in.
import { SqliteCheckpointStore } from '../sqlite-checkpoint-store.js';
import { makeCheckpoint } from './make-checkpoint.js';

const [filename, threads] = process.argv.slice(2);
if (!filename || !threads) {
  process.stderr.write('usage: run-group-child.ts <filename> <threads>\n');
  process.exit(2);
}
const store = new SqliteCheckpointStore({ filename });
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
  if (sequence === 1) process.stdout.write('ready\n');
}
