import { type CheckpointStore, SkeinEngine, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';

/** START → prep (VARIABLE) → answer (LLM) → post (VARIABLE) → END. */
function fiveNodes() {
  return new WorkflowBuilder('five', '1')
    .variables({ defaults: { n: 0 } })
    .start()
    .variable('prep', { assign: { n: 'vars.n + 1' } })
    .llm('answer')
    .variable('post', { assign: { n: 'vars.n + 1' } })
    .end('end', { output: 'vars.n' })
    .chain('start', 'prep', 'answer', 'post', 'end')
    .build();
}

export interface BenchEngine {
  readonly engine: SkeinEngine;
  /**
   * Drops what the scripted model recorded (about 4.5 KB per call, which a real model client
   * does not keep), so memory measures the run, not the recording. Called after every item:
   * clearing every 1,000 left up to 4.5 MB of recording in the heap, depending on where the
   * last item fell, which blurred the retained-heap comparison between sizes.
   */
  forget(): void;
}

/** The benchmark's engine: the scripted model answers every call at once. */
export function fiveNodeEngine(store?: CheckpointStore): BenchEngine {
  const llm = new ScriptedLLMClient(() => ({
    content: 'ok',
    usage: { promptTokens: 20, completionTokens: 2 },
  }));
  const engine = new SkeinEngine({ llm, ...(store ? { store } : {}) });
  engine.registerWorkflow(fiveNodes());
  return { engine, forget: () => (llm.calls.length = 0) };
}
