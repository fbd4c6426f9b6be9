// A separate process running the loop workflow on a SQLite file:
//   node --import tsx run-loop-child.ts <filename> <threadId> <iterations> [slowMs] [slowEvery] [goFile]
// Prints `slow <round>` as each slow model call starts and `done <output>` at the end. With
// `goFile` it opens the store, prints `ready`, and starts the run only once that file exists, so
// several processes can be made to write at the same time.
import { existsSync } from 'node:fs';
import { openStore } from './driver.js';
import { loopEngine, loopSteps } from './loop-workflow.js';

const [filename, threadId, iterations, slowMs, slowEvery, goFile] = process.argv.slice(2);
if (!filename || !threadId || !iterations) {
  process.stderr.write(
    'usage: run-loop-child.ts <filename> <threadId> <iterations> [slowMs] [slowEvery]\n',
  );
  process.exit(2);
}
const rounds = Number(iterations);
const store = openStore({ filename });
const engine = loopEngine(store, {
  iterations: rounds,
  ...(slowMs ? { slowMs: Number(slowMs), slowEvery: Number(slowEvery ?? 1) } : {}),
  onSlowCall: (round) => process.stdout.write(`slow ${round}\n`),
});
if (goFile) {
  process.stdout.write('ready\n');
  while (!existsSync(goFile)) await new Promise((resolve) => setTimeout(resolve, 5));
}
const { result } = await engine.run('loop', { threadId, maxSteps: loopSteps(rounds) });
store.close();
process.stdout.write(`done ${result.status} ${JSON.stringify(result.output)}\n`);
process.exit(result.status === 'COMPLETED' ? 0 : 1);
