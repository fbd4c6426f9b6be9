import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

function tripEngine(store = new InMemoryCheckpointStore()) {
  const llm = new ScriptedLLMClient((request) => ({
    content: `plan for ${request.messages.at(-1)!.content}`,
  }));
  const engine = new SkeinEngine({ store, llm });
  engine.registerWorkflow(
    new WorkflowBuilder('trip', '1')
      .start()
      .variable('city', {
        assign: { city: 'vars.city' },
        message: { role: 'user', content: '{{ vars.city }}' },
      })
      .llm('plan', {})
      .userInteraction('ok', { prompt: 'Book it?', variable: 'ok' })
      .end('end', { output: 'nodes.plan' })
      .chain('start', 'city', 'plan', 'ok', 'end')
      .build(),
  );
  return { engine, store };
}

describe('history', () => {
  it('lists every checkpoint with the node, status and what changed', async () => {
    const { engine } = tripEngine();
    await engine.run('trip', { threadId: 'h', variables: { city: 'Lyon' } });
    const history = await engine.history('h');
    expect(history.map((h) => [h.sequence, h.step, h.nodeId, h.status])).toEqual([
      [1, 1, 'city', 'RUNNING'],
      [2, 2, 'plan', 'RUNNING'],
      [3, 3, 'ok', 'RUNNING'],
      [4, 3, 'ok', 'PAUSED'],
    ]);
    expect(history[1]!.changes).toEqual({
      nodeCompleted: 'city',
      messagesAdded: 1,
      variablesChanged: [],
    });
    expect(history[2]!.summary).toBe('plan completed; +1 message');
    expect(history[3]!.summary).toBe('PAUSED');
    expect(history[0]!.changes.variablesChanged).toEqual(['city']);
    const light = await engine.history('h', { variables: false });
    expect(light[1]!.changes.variablesChanged).toBeUndefined();
    await expect(engine.history('nope')).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
  });
});

describe('fork', () => {
  it('forks from a checkpoint with changed variables: history up to there, nothing after', async () => {
    const { engine, store } = tripEngine();
    const { thread } = await engine.run('trip', { threadId: 'p', variables: { city: 'Lyon' } });
    await engine.resume(thread, 'yes');
    const atCity = (await engine.history('p'))[0]!; // before VARIABLE `city` ran
    const { thread: fork, result } = await engine.fork('p', {
      at: atCity.checkpointId,
      threadId: 'p-nice',
      variables: { city: 'Nice' },
    });
    expect(result).toMatchObject({ status: 'PAUSED', pending: { kind: 'user-input' } });
    expect(fork.state.forkedFrom).toEqual({ threadId: 'p', checkpointId: 'p:1' });
    const texts = fork.conversation.getMessages().map((m) => m.content);
    expect(texts.filter((t) => typeof t === 'string' && t.includes('Lyon'))).toEqual([]);
    expect(texts.slice(-2)).toEqual(['Nice', 'plan for Nice']);
    // The parent is untouched.
    expect((await store.load('p'))!.state).toMatchObject({ status: 'COMPLETED' });
    expect((await engine.resume(fork, 'yes')).result.output).toBe('plan for Nice');
  });

  it('forks a fork, adds messages, and keeps a paused checkpoint paused (stored at once)', async () => {
    const { engine, store } = tripEngine();
    await engine.run('trip', { threadId: 'root', variables: { city: 'Oslo' } });
    const paused = (await engine.history('root')).at(-1)!;
    const first = await engine.fork('root', { at: paused.checkpointId, threadId: 'f1' });
    expect(first.result.status).toBe('PAUSED');
    expect((await store.load('f1'))!.state).toMatchObject({
      status: 'PAUSED',
      forkedFrom: { threadId: 'root', checkpointId: paused.checkpointId },
    });
    const second = await engine.fork('f1', {
      threadId: 'f2',
      messages: [{ role: 'user', content: 'with a sea view' }],
    });
    expect(second.thread.state.forkedFrom).toEqual({ threadId: 'f1', checkpointId: 'f1:1' });
    const loaded = await engine.loadThread('f2');
    expect(loaded.conversation.getMessages().at(-1)).toMatchObject({ content: 'with a sea view' });
    expect((await engine.resume(loaded, 'go')).result.status).toBe('COMPLETED');
    expect((await store.load('f1'))!.state.status).toBe('PAUSED');
    // Unknown checkpoints, taken ids.
    await expect(engine.fork('root', { at: 'root:99' })).rejects.toMatchObject({
      code: 'CHECKPOINT_NOT_FOUND',
    });
    // A taken id is the store's to refuse, as when two forks race for it.
    const f1 = await store.list('f1');
    await expect(engine.fork('root', { threadId: 'f1' })).rejects.toMatchObject({
      code: 'CHECKPOINT_CONFLICT',
    });
    expect(await store.list('f1')).toEqual(f1);
  });

  it('gives a fork an unguessable id of its own by default', async () => {
    const { engine } = tripEngine();
    await engine.run('trip', { threadId: 'x', variables: { city: 'Rome' } });
    const { thread } = await engine.fork('x');
    expect(thread.threadId).toMatch(/^[0-9a-f-]{36}$/);
  });
});
