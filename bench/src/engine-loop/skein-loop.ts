import { InMemoryCheckpointStore, SkeinEngine } from '@skein/core';
import { loopWorkflow } from './loop-workflow.mjs';

/**
 * START -> inc (VARIABLE: counter + one templated message) -> check (ROUTE) -> inc … -> END, with
 * checkpoints in memory; or, as a reference for what those checkpoints cost, with no store.
 */
export async function skeinLoop(
  n: number,
  withMessage: boolean,
  checkpoints: 'in-memory' | 'none' = 'in-memory',
): Promise<void> {
  const engine = new SkeinEngine(
    checkpoints === 'none' ? {} : { store: new InMemoryCheckpointStore() },
  );
  engine.registerWorkflow(loopWorkflow(n, withMessage));
  const { result } = await engine.run('loop', { maxSteps: 2 * n + 10 });
  if (result.output !== n) throw new Error(`skein loop ended at ${String(result.output)}`);
}
