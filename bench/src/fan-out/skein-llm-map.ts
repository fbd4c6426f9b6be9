import { InMemoryCheckpointStore, SkeinEngine, type WorkflowDefinition } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { emptyStore } from './empty-store.js';

/** A MAP whose every branch asks the scripted model once (it answers after `delayMs`). */
function llmMap(maxConcurrency: number): WorkflowDefinition {
  return {
    id: 'ask-each',
    version: '1',
    nodes: [
      { id: 'start', type: 'START' },
      {
        id: 'fan',
        type: 'MAP',
        config: { items: 'vars.items', start: 'ask', join: 'join', maxConcurrency },
      },
      { id: 'ask', type: 'LLM', config: { prompt: 'item {{ vars.item }}' } },
      { id: 'join', type: 'JOIN', config: { outputVariable: 'results' } },
      { id: 'end', type: 'END', config: { output: 'vars.results' } },
    ],
    edges: [
      { from: 'start', to: 'fan' },
      { from: 'ask', to: 'join' },
      { from: 'join', to: 'end' },
    ],
  };
}

/**
 * An engine built once; each call runs `branches` branches, each one model call of `delayMs`, at
 * most `maxConcurrency` at once. `cleanUp` (after the timing) deletes the run's threads.
 */
export function prepareSkeinLlmMap(
  maxConcurrency: number,
  delayMs: number,
): { run: (branches: number) => Promise<void>; cleanUp: () => Promise<void> } {
  const llm = new ScriptedLLMClient(() => ({ content: 'ok', delayMs }));
  const store = new InMemoryCheckpointStore();
  const engine = new SkeinEngine({ llm, store });
  engine.registerWorkflow(llmMap(maxConcurrency));
  return {
    async run(branches) {
      const calls = llm.calls.length;
      const items = Array.from({ length: branches }, (_, i) => i + 1);
      const { result } = await engine.run('ask-each', { variables: { items }, maxSteps: 10 });
      if (result.status !== 'COMPLETED' || (result.output as unknown[]).length !== branches)
        throw new Error(`skein llm map ended ${result.status}`);
      if (llm.calls.length - calls !== branches)
        throw new Error(`${llm.calls.length - calls} model calls`);
    },
    cleanUp: () => emptyStore(store),
  };
}
