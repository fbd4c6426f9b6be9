import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import { engineWith, oneLLM } from '../test-support/executor-fixtures.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

function twoRoutes() {
  return new WorkflowBuilder('two', '1')
    .start()
    .route('a')
    .route('b')
    .end()
    .chain('start', 'a', 'b', 'end')
    .build();
}

/** An engine whose ROUTE handler records the signal each node saw. */
function recordingEngine() {
  const seen: (AbortSignal | undefined)[] = [];
  const engine = new SkeinEngine({
    handlers: {
      ROUTE: (ctx) => {
        seen.push(ctx.signal);
        return { kind: 'next' };
      },
    },
  });
  engine.registerWorkflow(twoRoutes());
  return { engine, seen };
}

describe('the signal a node handler gets', () => {
  it('without a caller signal, a handler gets none: nothing can cancel the run', async () => {
    const { engine, seen } = recordingEngine();
    const { result } = await engine.run('two');
    expect(result.status).toBe('COMPLETED');
    expect(seen).toEqual([undefined, undefined]);
  });

  it("with a caller signal, every handler gets the caller's", async () => {
    const { engine, seen } = recordingEngine();
    const controller = new AbortController();
    const thread = engine.createThread('two');
    await engine.run(thread, { signal: controller.signal });
    expect(seen).toEqual([controller.signal, controller.signal]);
  });

  it('a model call gets no signal when the run has none (nothing could abort it)', async () => {
    const { engine, llm } = engineWith([{ content: 'hi' }]);
    engine.registerWorkflow(oneLLM());
    const { result } = await engine.run('one', { input: 'hello' });
    expect(result.status).toBe('COMPLETED');
    expect(llm.calls[0]!.options).toEqual({});
  });
});
