import { contentText } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { JsonTextStore } from '../test-support/json-text-store.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { ScriptFunction } from '../testing/types.js';
import { type Tool, toolOutput } from '../tools/tool.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

const ledger: Tool<{ account: string }> = {
  name: 'ledger',
  description: 'Balance of an account, in cents',
  parameters: { type: 'object', properties: { account: { type: 'string' } } },
  execute: ({ account }) =>
    toolOutput({ content: `balance of ${account}`, data: { cents: 12345678901234567890n } }),
};

// A pure function of what the model sees, so a rerun asks and answers the same.
const model: ScriptFunction = (request) => {
  const last = request.messages.at(-1)!;
  if (last.role === 'user' && contentText(last.content).startsWith('check'))
    return { toolCalls: [{ name: 'ledger', arguments: { account: 'acme' } }] };
  return { content: `seen: ${last.content}` };
};

function engineOn(store: CheckpointStore) {
  const engine = new SkeinEngine({ llm: new ScriptedLLMClient(model), store });
  engine.registerTool(ledger);
  engine.registerWorkflow(
    new WorkflowBuilder('w', '1')
      .initialTools(['ledger'])
      .variables({ defaults: { n: 0 } })
      .start()
      .variable('count', { assign: { n: 'vars.n + 1' } })
      .llm('ask', { prompt: 'check the books' })
      .userInteraction('confirm', { prompt: 'OK?', variable: 'ok' })
      .end('end', { output: 'nodes.ask' })
      .chain('start', 'count', 'ask', 'confirm', 'end')
      .build(),
  );
  return engine;
}

describe('a tool result JSON cannot carry', () => {
  it('is refused where it enters: the model reads that it could not be stored, the thread goes on', async () => {
    const store = new JsonTextStore();
    const engine = engineOn(store);
    const errors: string[] = [];
    engine.events.on('tool:error', (e) => errors.push(e.code));
    const { thread, result } = await engine.run('w', { threadId: 't' });
    expect(result.status).toBe('PAUSED');
    const toolMessage = thread.conversation.getMessages().find((m) => m.role === 'tool')!;
    expect(toolMessage.content).toBe(
      'Error [TOOL_RESULT_NOT_JSON]: the result of "ledger" could not be stored: data.cents is a BigInt (JSON has no BigInt)',
    );
    expect(toolMessage.metadata).toEqual({ isError: true, errorCode: 'TOOL_RESULT_NOT_JSON' });
    expect(errors).toEqual(['TOOL_RESULT_NOT_JSON']);
    expect(thread.state.toolFailures.ledger).toBe(1);
    const stored = await store.load('t');
    expect(stored!.state.status).toBe('PAUSED');
    expect(stored!.conversation.messages).toEqual(
      JSON.parse(JSON.stringify(thread.conversation.getAllMessages())),
    );
  });
});

describe('a checkpoint save that fails', () => {
  it('ends the thread FAILED at its last stored checkpoint, recorded, and a rerun continues', async () => {
    const store = new JsonTextStore();
    const engine = engineOn(store);
    const thread = engine.createThread('w', { threadId: 't' });
    const failed: string[] = [];
    engine.events.on('thread:failed', (e) => failed.push(e.error!.code));
    // Saves after start and count go through; the one after `ask` fails, once.
    const original = store.save.bind(store);
    let armed = true;
    store.save = async (checkpoint) => {
      if (armed && checkpoint.state.currentNodeId === 'confirm') {
        armed = false;
        store.failSave = 1;
      }
      return original(checkpoint);
    };
    const { result } = await engine.run(thread);
    expect(result.status).toBe('FAILED');
    expect(result.error).toMatchObject({
      code: 'CHECKPOINT_SAVE_FAILED',
      threadId: 't',
      lastCheckpointId: 't:2',
    });
    expect(result.error!.message).toContain('database is locked');
    expect(failed).toEqual(['CHECKPOINT_SAVE_FAILED']);
    // Memory and store agree: the thread is back before `ask`, FAILED, never RUNNING.
    expect(thread.status).toBe('FAILED');
    expect(thread.state.currentNodeId).toBe('ask');
    expect(thread.conversation.getMessages().map((m) => m.role)).toEqual(['system']);
    const stored = await store.load('t');
    expect(stored!.state).toMatchObject({
      status: 'FAILED',
      currentNodeId: 'ask',
      error: { code: 'CHECKPOINT_SAVE_FAILED' },
    });
    expect(result.lastCheckpointId).toBe(stored!.checkpoint.id);

    // In this process, and in another one from the store, the thread continues to the end.
    const { result: again } = await engine.run(thread);
    expect(again.status).toBe('PAUSED');
    expect((await engine.resume(thread, 'yes')).result.status).toBe('COMPLETED');
    const elsewhere = engineOn(store);
    const { result: copy } = await elsewhere.run(
      await elsewhere.loadThread('t', stored!.checkpoint.id, { forkAs: 'u' }),
    );
    expect(copy.status).toBe('PAUSED');
  });

  it('with the store down, leaves memory FAILED and continues when the store is back', async () => {
    const store = new JsonTextStore();
    const engine = engineOn(store);
    const thread = engine.createThread('w', { threadId: 't' });
    store.down = true;
    const { result } = await engine.run(thread);
    expect(result.status).toBe('FAILED');
    expect(result.error).toMatchObject({ code: 'CHECKPOINT_SAVE_FAILED', threadId: 't' });
    expect((result.error as { lastCheckpointId?: string }).lastCheckpointId).toBeUndefined();
    expect(thread.status).toBe('FAILED');
    expect(thread.state.currentNodeId).toBe('start');
    expect(await store.load('t')).toBeUndefined();
    const { result: again } = await engine.run(thread);
    expect(again.status).toBe('FAILED');
    store.down = false;
    const { result: back } = await engine.run(thread);
    expect(back.status).toBe('PAUSED');
    const stored = await store.load('t');
    expect(stored!.state.status).toBe('PAUSED');
    expect(stored!.conversation.messages).toEqual(
      JSON.parse(JSON.stringify(thread.conversation.getAllMessages())),
    );
  });

  it('on the first save records the thread as built, so another process can run it', async () => {
    const store = new JsonTextStore();
    const engine = engineOn(store);
    const thread = engine.createThread('w', { threadId: 't', input: 'hello' });
    store.failSave = 1;
    const { result } = await engine.run(thread);
    expect(result.status).toBe('FAILED');
    const stored = (await store.load('t'))!;
    expect(stored.state).toMatchObject({ status: 'FAILED', currentNodeId: 'start', step: 0 });
    expect(stored.conversation.messages.map((m) => m.content)).toEqual(
      thread.conversation
        .getAllMessages()
        .slice(0, 2)
        .map((m) => m.content),
    );
    expect(stored.conversation.messages.at(-1)).toMatchObject({ role: 'user', content: 'hello' });
    const elsewhere = engineOn(store);
    const rebuilt = await elsewhere.loadThread('t');
    expect((await elsewhere.run(rebuilt)).result.status).toBe('PAUSED');
    const reference = await engineOn(new JsonTextStore()).run('w', { input: 'hello' });
    expect(rebuilt.conversation.getMessages()).toEqual(reference.thread.conversation.getMessages());
  });

  it('after resume input, stays PAUSED with the error so the same answer can be given again', async () => {
    const store = new JsonTextStore();
    const engine = engineOn(store);
    const { thread } = await engine.run('w', { threadId: 't' });
    const before = await store.list('t');
    store.down = true;
    const { result } = await engine.resume(thread, 'yes');
    expect(result.status).toBe('PAUSED');
    expect(result.error?.code).toBe('CHECKPOINT_SAVE_FAILED');
    expect(result.pending).toMatchObject({ kind: 'user-input', nodeId: 'confirm' });
    expect(thread.status).toBe('PAUSED');
    expect(thread.variables.ok).toBeUndefined();
    expect(await store.list('t')).toEqual(before);
    store.down = false;
    const { result: done } = await engine.resume(thread, 'yes');
    expect(done.status).toBe('COMPLETED');
    expect((await store.load('t'))!.state.variables.ok).toBe('yes');
  });

  it('from a stale writer is still thrown, and the thread is not left RUNNING', async () => {
    const store = new InMemoryCheckpointStore();
    const engine = engineOn(store);
    const { thread } = await engine.run('w', { threadId: 't' });
    const stale = await engine.loadThread('t', 't:2');
    await expect(engine.run(stale)).rejects.toMatchObject({ code: 'CHECKPOINT_CONFLICT' });
    expect(stale.status).toBe('FAILED');
    expect(stale.state.error?.code).toBe('CHECKPOINT_CONFLICT');
    expect((await engine.resume(thread, 'yes')).result.status).toBe('COMPLETED');
  });
});
