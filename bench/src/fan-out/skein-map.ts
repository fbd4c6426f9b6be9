import { InMemoryCheckpointStore, SkeinEngine, type WorkflowDefinition } from '@skein/core';

/** START -> MAP over `vars.items` (one branch per item: VARIABLE doubled = item * 2) -> JOIN -> END. */
function mapWorkflow(maxConcurrency: number): WorkflowDefinition {
  return {
    id: 'fan-out',
    version: '1',
    nodes: [
      { id: 'start', type: 'START' },
      {
        id: 'fan',
        type: 'MAP',
        config: { items: 'vars.items', start: 'times2', join: 'join', maxConcurrency },
      },
      { id: 'times2', type: 'VARIABLE', config: { assign: { doubled: 'vars.item * 2' } } },
      { id: 'join', type: 'JOIN', config: { output: 'vars.doubled', outputVariable: 'results' } },
      { id: 'end', type: 'END', config: { output: 'vars.results' } },
    ],
    edges: [
      { from: 'start', to: 'fan' },
      { from: 'times2', to: 'join' },
      { from: 'join', to: 'end' },
    ],
  };
}

/** Doubles `items` through a MAP of one branch per item, each branch checkpointed in memory. */
export async function skeinMap(items: readonly number[], maxConcurrency = 100): Promise<unknown> {
  const engine = new SkeinEngine({ store: new InMemoryCheckpointStore() });
  engine.registerWorkflow(mapWorkflow(maxConcurrency));
  const { result } = await engine.run('fan-out', {
    variables: { items },
    maxSteps: 10,
  });
  if (result.status !== 'COMPLETED') throw new Error(`skein map ended ${result.status}`);
  return result.output;
}
