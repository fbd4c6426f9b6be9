// A scored dataset run in its own process, for the SIGKILL test of scores:
// node --import tsx score-crash-child.ts <db file> <run folder> <input file> <concurrency>
// Prints `scored <n>` after each score line queued, and `summary <json>` at the end.
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { runDataset } from '../run/run-dataset.js';
import { exactMatch } from '../score/scorers/exact-match.js';
import { rubricScorer } from '../score/scorers/rubric-scorer.js';
import { trajectoryScorer } from '../score/scorers/trajectory-scorer.js';
import { fakeJudge } from './fake-judge.js';
import { qaEngine } from './qa-engine.js';

const [filename, output, input, concurrency] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const store = new SqliteCheckpointStore({ filename });
// A grader that takes 5 to 15 ms, so a kill finds items whose result is written and whose grade
// is not yet.
const judge = fakeJudge(
  (_, prompt) =>
    new Promise((resolve) =>
      setTimeout(
        () => resolve(`{"reason":"graded","score":${prompt.includes('QUESTION') ? 1 : 0}}`),
        5 + Math.floor(Math.random() * 10),
      ),
    ),
);
let scored = 0;
const summary = await runDataset({
  // The killed process's leases hold its threads until they expire: short, so the rerun's wait
  // for them stays short.
  engine: qaEngine({ store, leaseMs: 1_000 }),
  workflowId: 'qa',
  input,
  itemId: 'id',
  threadOptions: (item) => ({ input: (item as { q: string }).q }),
  output,
  runId: 'score-crash',
  concurrency: Number(concurrency),
  scorers: [
    exactMatch(),
    trajectoryScorer({ expected: 'calls' }),
    rubricScorer({ llm: judge, rubric: 'The answer repeats what the lookup found.' }),
  ],
  onScore: () => process.stdout.write(`scored ${++scored}\n`),
});
store.close();
process.stdout.write(`summary ${JSON.stringify(summary)}\n`);
