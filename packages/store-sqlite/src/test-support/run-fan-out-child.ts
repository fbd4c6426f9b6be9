// A separate process running the fan-out workflow on a SQLite file until killed:
//   node --import tsx run-fan-out-child.ts <filename> <threadId> <callsFile> <hangCity>
// Prints `branch <path> <status>` as each branch ends and `hang` when the hanging call starts.
import { openStore } from './driver.js';
import { CITIES, fanOutEngine } from './fan-out-workflow.js';

const [filename, threadId, callsFile, hang] = process.argv.slice(2);
if (!filename || !threadId || !callsFile || !hang) {
  process.stderr.write(
    'usage: run-fan-out-child.ts <filename> <threadId> <callsFile> <hangCity>\n',
  );
  process.exit(2);
}
const store = openStore({ filename });
const engine = fanOutEngine(store, {
  callsFile,
  hang,
  onHang: () => process.stdout.write('hang\n'),
});
engine.events.on('thread:completed', (e) => {
  if (e.branchPath) process.stdout.write(`branch ${e.branchPath} COMPLETED\n`);
});
await engine.run('compare', { threadId, variables: { cities: CITIES } });
process.stdout.write('done\n');
