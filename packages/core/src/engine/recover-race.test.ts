import { describe, expect, it } from 'vitest';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import { SkeinEngine } from './skein-engine.js';

// recover() lists the RUNNING threads and loads each before it takes the thread's lease. A live
// process may finish the thread in between and give its lease up: the lease is then free, but
// the checkpoint recover loaded is no longer the thread's latest, and running from it would run
// a node again (here the model call; in general a tool's side effect).
describe('recover and a live process that finishes in between', () => {
  it('runs nothing when the thread moved on between its load and its lease', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    const llm = new ScriptedLLMClient(async () => {
      calls++;
      if (calls === 1) await gate;
      return { content: `answer ${calls}` };
    });
    const store = new InMemoryCheckpointStore();
    const workflow = new WorkflowBuilder('ask', '1')
      .start()
      .llm('ask')
      .end()
      .chain('start', 'ask', 'end')
      .build();
    const live = new SkeinEngine({ llm, store, owner: 'live' });
    live.registerWorkflow(workflow);
    const running = live.run('ask', { input: 'hello', threadId: 't' });
    // The live run has stored the thread RUNNING and waits on the model.
    while ((await store.listThreads())[0]?.status !== 'RUNNING') await Promise.resolve();

    // The recovering engine's store lets the live run finish just before its lease is taken.
    const racing = new Proxy(store, {
      get(target, key) {
        if (key === 'acquireLease')
          return async (
            threadId: string,
            lease: Parameters<CheckpointStore['acquireLease']>[1],
          ) => {
            release();
            expect((await running).result.status).toBe('COMPLETED');
            return target.acquireLease(threadId, lease);
          };
        const value = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const recovering = new SkeinEngine({ llm, store: racing, owner: 'recovering' });
    recovering.registerWorkflow(workflow);
    const started = await recovering.recover();
    await Promise.all(started.map((run) => run.result));

    expect(calls).toBe(1);
    expect(started).toHaveLength(0);
    const latest = (await store.load('t'))!;
    expect(latest.state.status).toBe('COMPLETED');
    live.close();
    recovering.close();
  });
});
