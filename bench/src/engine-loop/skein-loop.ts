import { InMemoryCheckpointStore, SkeinEngine, WorkflowBuilder } from '@skein/core';

/** START -> inc (VARIABLE: counter + one templated message) -> check (ROUTE) -> inc … -> END, checkpoints in memory. */
export async function skeinLoop(n: number, withMessage: boolean): Promise<void> {
  const engine = new SkeinEngine({ store: new InMemoryCheckpointStore() });
  engine.registerWorkflow(
    new WorkflowBuilder('loop', '1')
      .variables({ defaults: { n: 0 } })
      .start()
      .variable('inc', {
        assign: { n: 'vars.n + 1' },
        ...(withMessage
          ? { message: { role: 'user' as const, content: 'tick {{ vars.n }}' } }
          : {}),
      })
      .route('check')
      .end('end', { output: 'vars.n' })
      .chain('start', 'inc', 'check')
      .edge('check', 'inc', { when: `vars.n < ${n}` })
      .edge('check', 'end')
      .build(),
  );
  const { result } = await engine.run('loop', { maxSteps: 2 * n + 10 });
  if (result.output !== n) throw new Error(`skein loop ended at ${String(result.output)}`);
}
