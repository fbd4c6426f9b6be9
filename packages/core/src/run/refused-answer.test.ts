import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { ThreadError } from '../errors/thread-error.js';
import type { NodeHandler } from '../nodes/node-handler.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

/**
 * A node of the app's own that asks for a number and refuses anything else only once it has the
 * answer: what the engine cannot check before claiming the pause.
 */
const askNumber =
  (onAnswer?: () => Promise<never>): NodeHandler =>
  ({ thread, node, resume }) => {
    const pending = thread.state.pending;
    if (!resume || pending?.nodeId !== node.id)
      return {
        kind: 'pause',
        pending: { kind: 'user-input', nodeId: node.id, prompt: 'A number?' },
      };
    if (onAnswer) return onAnswer();
    if (typeof resume.input !== 'number')
      throw ThreadError.resumeInput(thread.threadId, 'the answer must be a number');
    return { kind: 'next', output: resume.input };
  };

function numberEngine(
  store: InMemoryCheckpointStore,
  clock: () => number,
  onAnswer?: () => Promise<never>,
) {
  const engine = new SkeinEngine({
    store,
    owner: 'p',
    now: clock,
    leaseMs: 1_000,
    handlers: { USER_INTERACTION: askNumber(onAnswer) },
  });
  engine.registerWorkflow(
    new WorkflowBuilder('ask', '1')
      .start()
      .userInteraction('q')
      .end('end', { output: 'nodes.q' })
      .chain('start', 'q', 'end')
      .build(),
  );
  return engine;
}

describe('an answer a node refuses after it was claimed', () => {
  it('is given back: the stored thread is PAUSED and answerable again, with no claim', async () => {
    const store = new InMemoryCheckpointStore();
    const engine = numberEngine(store, () => 0);
    await engine.run('ask', { threadId: 'n' });
    await expect(engine.resume('n', 'forty-two')).rejects.toMatchObject({
      code: 'RESUME_INPUT_INVALID',
    });
    const stored = await store.load('n');
    expect(stored!.state.status).toBe('PAUSED');
    expect(stored!.state.pending).toMatchObject({ kind: 'user-input', nodeId: 'q' });
    expect(stored!.state.pending!.answer).toBeUndefined();
    const { result } = await engine.resume('n', 42);
    expect(result).toMatchObject({ status: 'COMPLETED', output: 42 });
  });

  it('is given back by recover() when a process claimed it and died', async () => {
    const store = new InMemoryCheckpointStore();
    let clock = 0;
    // The first process stores the claim, then hangs in the node: as good as dead.
    let hung!: () => void;
    const inNode = new Promise<void>((resolve) => (hung = resolve));
    const dead = numberEngine(
      store,
      () => clock,
      () => {
        hung();
        return new Promise<never>(() => {});
      },
    );
    await dead.run('ask', { threadId: 'd' });
    await dead.claimResume(await dead.loadThread('d'), 'forty-two');
    await inNode;
    expect((await store.load('d'))!.state).toMatchObject({ status: 'RUNNING' });
    clock = 5_000;
    const next = numberEngine(store, () => clock);
    const recovered = await next.recover();
    expect(recovered.map((r) => r.threadId)).toEqual(['d']);
    await expect(recovered[0]!.result).rejects.toMatchObject({ code: 'RESUME_INPUT_INVALID' });
    const stored = (await store.load('d'))!;
    expect(stored.state.status).toBe('PAUSED');
    expect(stored.state.pending!.answer).toBeUndefined();
    expect(await next.recover()).toEqual([]);
    const { result } = await next.resume('d', 7);
    expect(result).toMatchObject({ status: 'COMPLETED', output: 7 });
  });
});
