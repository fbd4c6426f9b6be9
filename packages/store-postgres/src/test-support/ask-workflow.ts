import { type CheckpointStore, SkeinEngine, WorkflowBuilder } from '@skein/core';

// A workflow without a model for the multi-process tests: it waits for an answer, then three
// VARIABLE nodes each add a message (a checkpoint per node), then it ends with the variables.
export function askEngine(store: CheckpointStore): SkeinEngine {
  const engine = new SkeinEngine({ store });
  engine.registerWorkflow(
    new WorkflowBuilder('ask', '1')
      .variables({ defaults: { n: 0 } })
      .start()
      .userInteraction('ask', { prompt: 'Who are you?', variable: 'answer' })
      .variable('one', {
        assign: { n: 'vars.n + 1' },
        message: { role: 'assistant', content: '{{ vars.answer }} one' },
      })
      .variable('two', {
        assign: { n: 'vars.n + 1' },
        message: { role: 'assistant', content: '{{ vars.answer }} two' },
      })
      .variable('three', {
        assign: { n: 'vars.n + 1' },
        message: { role: 'assistant', content: '{{ vars.answer }} three' },
      })
      .end('end', { output: 'vars' })
      .chain('start', 'ask', 'one', 'two', 'three', 'end')
      .build(),
  );
  return engine;
}
