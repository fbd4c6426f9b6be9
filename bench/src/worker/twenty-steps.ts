import { type CheckpointStore, SkeinEngine, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';

/** The engine suite's 20-step workflow: START, nine LLM + VARIABLE pairs, a ROUTE, END (21 nodes). */
function twentySteps() {
  const builder = new WorkflowBuilder('twenty', '1').variables({ defaults: { n: 0 } }).start();
  const ids = ['start'];
  for (let i = 0; i < 9; i++) {
    builder
      .llm(`ask${i}`, { prompt: 'step {{ vars.n }}' })
      .variable(`note${i}`, { assign: { n: 'vars.n + 1' } });
    ids.push(`ask${i}`, `note${i}`);
  }
  builder.route('route').end('end', { output: 'vars.n' });
  return builder
    .chain(...ids, 'route')
    .edge('route', 'end')
    .build();
}

export const NODES_PER_THREAD = 21;

/** An engine with the 20-step workflow and an instant scripted model, on `store`. */
export function twentyStepEngine(store: CheckpointStore): SkeinEngine {
  const llm = new ScriptedLLMClient(() => ({ content: 'ok' }), { stream: true });
  const engine = new SkeinEngine({ llm, store });
  engine.registerWorkflow(twentySteps());
  return engine;
}
