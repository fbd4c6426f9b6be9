import { InMemoryCheckpointStore, SkeinEngine, type WorkflowDefinition } from '@skein/core';
import { emptyStore } from './empty-store.js';

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

/**
 * An engine built once, as an app builds it; each call doubles `items` through a MAP of one branch
 * per item, each branch checkpointed in memory. `cleanUp` (called after the timing) deletes the
 * run's threads from the store.
 */
export function prepareSkeinMap(maxConcurrency = 100): {
  run: (items: readonly number[]) => Promise<unknown>;
  cleanUp: () => Promise<void>;
} {
  const store = new InMemoryCheckpointStore();
  const engine = new SkeinEngine({ store });
  engine.registerWorkflow(mapWorkflow(maxConcurrency));
  return {
    async run(items) {
      const { result } = await engine.run('fan-out', { variables: { items }, maxSteps: 10 });
      if (result.status !== 'COMPLETED') throw new Error(`skein map ended ${result.status}`);
      return result.output;
    },
    cleanUp: () => emptyStore(store),
  };
}
