import { WorkflowBuilder } from '@skein/core';

/**
 * The engine-step loop the engine, otel and instruction-count benches run: START → inc
 * (VARIABLE: counter, and one templated message when asked) → check (ROUTE) → inc … → END once
 * the counter reaches `n`. Plain JavaScript so the instruction-count worker, which runs without a
 * TypeScript loader, imports the same definition.
 * @param {number} n
 * @param {boolean} withMessage
 */
export function loopWorkflow(n, withMessage) {
  return new WorkflowBuilder('loop', '1')
    .variables({ defaults: { n: 0 } })
    .start()
    .variable('inc', {
      assign: { n: 'vars.n + 1' },
      ...(withMessage ? { message: { role: 'user', content: 'tick {{ vars.n }}' } } : {}),
    })
    .route('check')
    .end('end', { output: 'vars.n' })
    .chain('start', 'inc', 'check')
    .edge('check', 'inc', { when: `vars.n < ${n}` })
    .edge('check', 'end')
    .build();
}
