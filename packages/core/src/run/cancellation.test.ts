import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { countTo } from '../test-support/executor-fixtures.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

function engine() {
  const llm = new ScriptedLLMClient([{ content: 'done', delayMs: 2 }]);
  const e = new SkeinEngine({ llm, store: new InMemoryCheckpointStore() });
  // VARIABLE and ROUTE nodes answer synchronously: without a yield the loop never lets a timer run.
  e.registerWorkflow(countTo(1_000_000_000, { id: 'spin' }));
  e.registerWorkflow(
    new WorkflowBuilder('ask', '1')
      .start()
      .llm('ask')
      .end('end')
      .chain('start', 'ask', 'end')
      .build(),
  );
  return e;
}

const MAX_STEPS = 200_000;

describe('a run of synchronous nodes', () => {
  it('honours an abort from a timer: CANCELLED at the next node, not FAILED at maxSteps', async () => {
    const e = engine();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 0);
    const { result, thread } = await e.run('spin', {
      signal: controller.signal,
      maxSteps: MAX_STEPS,
    });
    expect(result.status).toBe('CANCELLED');
    expect(result.error?.code).toBe('THREAD_CANCELLED');
    expect(result.steps).toBeLessThan(MAX_STEPS);
    expect(thread.status).toBe('CANCELLED');
  });

  it('lets other threads run meanwhile', async () => {
    const e = engine();
    const controller = new AbortController();
    const spinning = e.run('spin', { signal: controller.signal, maxSteps: MAX_STEPS });
    // The other thread's model answers after a timer; when it is done, the spinning one stops.
    const other = e.run('ask').then(({ result }) => {
      controller.abort();
      return result;
    });
    const [spun, asked] = await Promise.all([spinning, other]);
    expect(asked.status).toBe('COMPLETED');
    expect(spun.result.status).toBe('CANCELLED');
    expect(spun.result.steps).toBeLessThan(MAX_STEPS);
  });
});
