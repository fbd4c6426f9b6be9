import { type CheckpointStore, SkeinEngine, WorkflowBuilder } from '@skein/core';

/** The workflow id of `napEngine`'s only workflow. */
export const NAP = 'nap';

/** A wake time already past: the SLEEP does not wait, the thread runs START, SLEEP, END at once. */
export const NO_NAP = new Date(0).toISOString();

/**
 * START, a SLEEP until `vars.wakeAt` (an ISO time given at enqueue), END. With a wake time in the
 * future the thread ends its first run WAITING and leaves a wake job; with one in the past it is
 * the same three nodes run straight through: what the woken threads are compared with.
 */
export function napEngine(store: CheckpointStore): SkeinEngine {
  const engine = new SkeinEngine({ store });
  engine.registerWorkflow(
    new WorkflowBuilder(NAP, '1')
      .variables({ defaults: { wakeAt: NO_NAP } })
      .start()
      .sleep('nap', { until: 'vars.wakeAt' })
      .end('end', { output: '"rested"' })
      .chain('start', 'nap', 'end')
      .build(),
  );
  return engine;
}
