import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

function askEngine() {
  const engine = new SkeinEngine({ store: new InMemoryCheckpointStore() });
  engine.registerWorkflow(
    new WorkflowBuilder('ask', '1')
      .start()
      .userInteraction('confirm', { prompt: 'Go?', variable: 'answer' })
      .end('end', { output: 'vars.answer' })
      .chain('start', 'confirm', 'end')
      .build(),
  );
  return engine;
}

describe('engine.resume returns { thread, result } like run, send and fork', () => {
  it('given a thread, resolves with that same thread and its result', async () => {
    const engine = askEngine();
    const { thread, result: first } = await engine.run('ask', { threadId: 'ask-1' });
    expect(first.status).toBe('PAUSED');
    const outcome = await engine.resume(thread, 'yes');
    expect(outcome.thread).toBe(thread);
    expect(outcome.result).toMatchObject({ status: 'COMPLETED', output: 'yes' });
    expect(thread.status).toBe('COMPLETED');
  });

  it('given an id, loads the thread from the store and resumes it', async () => {
    const engine = askEngine();
    const { thread: started } = await engine.run('ask', { threadId: 'ask-2' });
    const { thread, result } = await engine.resume('ask-2', 'by id');
    expect(thread).not.toBe(started);
    expect(thread.threadId).toBe('ask-2');
    expect(thread.status).toBe('COMPLETED');
    expect(result).toMatchObject({ status: 'COMPLETED', output: 'by id' });
    expect((await engine.loadThread('ask-2')).status).toBe('COMPLETED');
  });

  it('rejects an unknown id with CHECKPOINT_NOT_FOUND', async () => {
    const engine = askEngine();
    await expect(engine.resume('nobody', 'yes')).rejects.toMatchObject({
      code: 'CHECKPOINT_NOT_FOUND',
    });
  });
});
