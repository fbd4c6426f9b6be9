// A process saving checkpoints of many threads at once, group after group, until it is killed:
//   node --import tsx run-group-child.ts <filename> <threads>
// Prints `saved <checkpoint id>` as each save resolves, and `ready` once the first group is in.
import { saveGroupsUntilKilled } from '@skein/core/testing';
import { openStore } from './driver.js';

const [filename, threads] = process.argv.slice(2);
if (!filename || !threads) {
  process.stderr.write('usage: run-group-child.ts <filename> <threads>\n');
  process.exit(2);
}
const store = openStore({ filename });
await saveGroupsUntilKilled(store, Number(threads), {
  saved: (id) => process.stdout.write(`saved ${id}\n`),
  grouped: (sequence) => {
    if (sequence === 1) process.stdout.write('ready\n');
  },
});
