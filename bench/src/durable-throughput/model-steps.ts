import { type CheckpointStore, SkeinEngine, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';

/**
 * The shape of an agent step as issue 35 measures it: START, then `steps` times an LLM node (the
 * model answers after `delayMs`), a VARIABLE node counting the step and a ROUTE node looping back,
 * then END. Each model step checkpoints three times (LLM, VARIABLE, ROUTE).
 */
function modelSteps(steps: number) {
  return new WorkflowBuilder('model-steps', '1')
    .variables({ defaults: { n: 0 } })
    .start()
    .llm('ask', { prompt: 'step {{ vars.n }}' })
    .variable('note', { assign: { n: 'vars.n + 1' } })
    .route('check')
    .end('end', { output: 'vars.n' })
    .chain('start', 'ask', 'note', 'check')
    .edge('check', 'ask', { when: `vars.n < ${steps}` })
    .edge('check', 'end')
    .build();
}

/** An engine on `store` whose model answers every call after `delayMs` (0: at once). */
export function modelStepsEngine(store: CheckpointStore, steps: number, delayMs: number) {
  const llm = new ScriptedLLMClient(
    () => ({ content: 'ok', ...(delayMs > 0 ? { delayMs } : {}) }),
    {
      stream: false,
    },
  );
  const engine = new SkeinEngine({ llm, store });
  engine.registerWorkflow(modelSteps(steps));
  return engine;
}

/** Nodes a thread runs: START, three per model step, END. */
export function nodesPerThread(steps: number): number {
  return 3 * steps + 2;
}

/** Runs `threads` threads at once to the end; resolves with the wall time in ms. */
export async function runThreadsAtOnce(
  engine: SkeinEngine,
  prefix: string,
  threads: number,
  steps: number,
): Promise<number> {
  const started = performance.now();
  const runs = await Promise.all(
    Array.from({ length: threads }, (_, i) =>
      engine
        .run('model-steps', { threadId: `${prefix}-${i}`, maxSteps: nodesPerThread(steps) })
        .then(({ result }) => result),
    ),
  );
  const ms = performance.now() - started;
  for (const result of runs)
    if (result.status !== 'COMPLETED' || result.output !== steps)
      throw new Error(`thread ${result.threadId} ended ${result.status}`);
  return ms;
}
