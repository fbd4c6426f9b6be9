import { InMemoryCheckpointStore, SkeinEngine, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';

/** A 20-step workflow: START, nine LLM + VARIABLE pairs, a ROUTE, END. */
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

/** Runs `count` threads of the 20-step workflow concurrently against a scripted model. */
export async function skeinThreads(count: number): Promise<void> {
  const llm = new ScriptedLLMClient(() => ({ content: 'ok' }), { stream: true });
  const engine = new SkeinEngine({ llm, store: new InMemoryCheckpointStore() });
  engine.registerWorkflow(twentySteps());
  const runs = await Promise.all(Array.from({ length: count }, () => engine.run('twenty')));
  for (const { result } of runs)
    if (result.output !== 9 || result.steps !== 21) throw new Error('thread did not finish');
  llm.calls.length = 0;
}
