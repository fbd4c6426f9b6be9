// A workflow module with scorers, for `skein run --score` and `skein score` in the CLI tests. Its
// threads go to the SQLite file in SCORED_DB, so a later process can score them.
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import type { DatasetWorkflowModule } from '../run/dataset-workflow.js';
import { exactMatch } from '../score/scorers/exact-match.js';
import { functionScorer } from '../score/scorers/function-scorer.js';
import { trajectoryScorer } from '../score/scorers/trajectory-scorer.js';
import { qaEngine } from './qa-engine.js';

const workflow: DatasetWorkflowModule = () => {
  const store = new SqliteCheckpointStore({ filename: process.env.SCORED_DB ?? ':memory:' });
  return {
    engine: qaEngine({ store }),
    workflowId: 'qa',
    itemId: 'id',
    threadOptions: (item) => ({ input: (item as { q: string }).q }),
    scorers: [
      exactMatch(),
      trajectoryScorer({ expected: 'calls' }),
      functionScorer('fails', () => {
        throw new Error('this scorer always fails');
      }),
    ],
    close: () => store.close(),
  };
};
export default workflow;
