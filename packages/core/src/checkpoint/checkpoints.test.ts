import type { LLMMessage } from '@skein/spec';
import { CheckpointConflictError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import { countTo } from '../test-support/executor-fixtures.js';
import { JsonTextStore } from '../test-support/json-text-store.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { ScriptFunction } from '../testing/types.js';
import type { Tool } from '../tools/tool.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import type { CheckpointStore } from './checkpoint-store.js';
import { InMemoryCheckpointStore } from './in-memory-checkpoint-store.js';

function bind(store: CheckpointStore): CheckpointStore {
  return {
    save: (cp) => store.save(cp),
    load: (id, cp) => store.load(id, cp),
    list: (id) => store.list(id),
    listStates: (id) => store.listStates(id),
    listThreads: () => store.listThreads(),
    listWakes: () => store.listWakes(),
    listWaiting: (event) => store.listWaiting(event),
    delete: (id) => store.delete(id),
    prune: (id, o) => store.prune(id, o),
    acquireLease: (id, lease) => store.acquireLease(id, lease),
    releaseLease: (id, owner) => store.releaseLease(id, owner),
  };
}

const lookup: Tool<{ city: string }> = {
  name: 'lookup',
  description: 'Finds a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => ({ city, population: city.length * 1000 }),
};

// A model that is a pure function of what it sees, so a resumed run asks and answers the same.
const model: ScriptFunction = (request) => {
  const last = request.messages.at(-1)!;
  if (last.role === 'user')
    return { toolCalls: [{ name: 'lookup', arguments: { city: last.content } }] };
  return { content: `Found ${last.content}` };
};

function workflow() {
  return new WorkflowBuilder('trip', '1')
    .initialTools(['lookup'])
    .variables({ defaults: { n: 0 } })
    .start()
    .llm('first', { prompt: 'Rome' })
    .variable('count', { assign: { n: 'vars.n + 1' } })
    .contextProcessor('trim', [{ type: 'TRUNCATE', keep: 'last', count: 2 }])
    .llm('second', { prompt: 'Oslo' })
    .llm('third', { prompt: 'Lima' })
    .end('end', { output: 'nodes.third' })
    .chain('start', 'first', 'count', 'trim', 'second', 'third', 'end')
    .build();
}

function engine(store: CheckpointStore, llm = new ScriptedLLMClient(model)) {
  const e = new SkeinEngine({ llm, store });
  e.registerTool(lookup);
  e.registerWorkflow(workflow());
  return e;
}

const shape = (messages: readonly LLMMessage[]) => JSON.parse(JSON.stringify(messages));

describe('checkpoints', () => {
  it('are saved after each node and hold only what changed (incremental)', async () => {
    const store = new JsonTextStore();
    const { result, thread } = await engine(store).run('trip', { threadId: 't1' });
    expect(result.status).toBe('COMPLETED');
    expect(store.saved.length).toBe(result.steps + 0);
    let messages = 0;
    for (const cp of store.saved) {
      expect(cp.conversation.from.messages).toBe(messages);
      messages += cp.conversation.messages.length;
    }
    expect(messages).toBe(thread.conversation.getTotalMessageCount());
    const loaded = await store.load('t1');
    expect(loaded?.conversation.messages).toEqual(shape(thread.conversation.getAllMessages()));
    expect(loaded?.state.status).toBe('COMPLETED');
    const infos = await store.list('t1');
    expect(infos.map((i) => i.sequence)).toEqual(infos.map((_, i) => i + 1));
    expect((await store.listThreads())[0]).toMatchObject({
      threadId: 't1',
      workflowId: 'trip',
      status: 'COMPLETED',
    });
  });

  it('a run that crashes at node k and is rebuilt from its last checkpoint ends like an uninterrupted run', async () => {
    const reference = await engine(new JsonTextStore()).run('trip', { threadId: 'ref' });
    const referenceMessages = shape(reference.thread.conversation.getAllMessages());

    for (const crashAt of ['first', 'count', 'trim', 'second', 'third', 'end']) {
      // The process dies in the middle of node `crashAt`: from that moment nothing reaches the
      // store any more. The dead run is abandoned; only the store survives.
      const store = new JsonTextStore();
      let dead = false;
      const dying: CheckpointStore = {
        ...bind(store),
        save: (cp) => (dead ? Promise.resolve() : store.save(cp)),
      };
      const doomed = engine(dying);
      doomed.events.on('node:started', (e) => {
        if (e.nodeId === crashAt) dead = true;
      });
      await doomed.run('trip', { threadId: 'c' });

      const stored = await store.load('c');
      const before = stored!.conversation.messages;
      // A new engine (a new process) picks the thread up from the store.
      const fresh = engine(store);
      const thread = await fresh.loadThread('c');
      expect(thread.lastCheckpointId).toBe(stored!.checkpoint.id);
      const { result } = await fresh.run(thread);
      expect(result.status, crashAt).toBe('COMPLETED');
      expect(result.output, crashAt).toBe(reference.result.output);
      const all = shape(thread.conversation.getAllMessages());
      expect(all, crashAt).toEqual(referenceMessages);
      expect(all.slice(0, before.length), crashAt).toEqual(before);
      expect((await store.load('c'))!.conversation.messages, crashAt).toEqual(referenceMessages);
    }
  });

  it('a node that fails or is cancelled halfway is undone; a retry sees what the first try saw', async () => {
    // Node `second` fails after its tool round, on every retry of the first run (3 attempts).
    let failures = 3;
    const flaky = new ScriptedLLMClient((request, index) => {
      if (request.nodeId === 'second' && request.messages.at(-1)!.role === 'tool' && failures > 0) {
        failures--;
        return { fail: 'provider went away' };
      }
      return model(request, index);
    });
    const e = new SkeinEngine({ llm: flaky, store: new InMemoryCheckpointStore() });
    e.registerTool(lookup);
    e.registerWorkflow({
      ...workflow(),
      nodes: workflow().nodes.map((n) =>
        n.type === 'LLM' ? { ...n, config: { ...n.config, retry: { initialDelayMs: 1 } } } : n,
      ),
    });
    const { thread, result } = await e.run('trip', { threadId: 'f' });
    expect(result.status).toBe('FAILED');
    expect(result.error?.code).toBe('LLM_CALL_FAILED');
    expect(thread.state.currentNodeId).toBe('second');
    const visibleAfterFailure = thread.conversation.getMessages().map((m) => m.content);
    // The half-run node's prompt, call and tool result are stored but no longer visible.
    expect(visibleAfterFailure).not.toContain('Oslo');
    expect(thread.conversation.getAllMessages().some((m) => m.content === 'Oslo')).toBe(true);
    const { result: retried } = await e.run(thread);
    expect(retried.status).toBe('COMPLETED');
    const reference = await engine(new InMemoryCheckpointStore()).run('trip', { threadId: 'r' });
    expect(thread.conversation.getMessages()).toEqual(reference.thread.conversation.getMessages());
    expect(retried.output).toBe(reference.result.output);
  });

  it('a save at step 10,000 stores what a save at step 10 does', async () => {
    const store = new JsonTextStore();
    const e = new SkeinEngine({ store });
    e.registerWorkflow(countTo(5000, { id: 'count', message: 'tick' }));
    const { result } = await e.run('count', { maxSteps: 20_000 });
    expect(result.output).toBe(5000);
    // Every checkpoint carries at most the one message its node added, early or late.
    expect(store.saved.length).toBeGreaterThan(10_000);
    expect(Math.max(...store.saved.map((cp) => cp.conversation.messages.length))).toBe(1);
    expect(Math.max(...store.saved.map((cp) => cp.conversation.log.length))).toBeLessThanOrEqual(1);
    const early = JSON.stringify(store.saved[20]).length;
    const late = JSON.stringify(store.saved[store.saved.length - 20]).length;
    expect(late - early).toBeLessThan(40); // only numbers grew digits
  });

  it('rejects a checkpoint that does not continue the stored conversation', async () => {
    const store = new InMemoryCheckpointStore();
    const e = engine(store);
    const { thread } = await e.run('trip', { threadId: 'x' });
    const rebuilt = await e.loadThread('x', 'x:2');
    rebuilt.dispatch({ type: 'finished', status: 'FAILED', error: undefined });
    rebuilt.conversation.addMessage({ role: 'user', content: 'diverge' });
    await expect(e.run(rebuilt)).rejects.toThrow(CheckpointConflictError);
    // Forking under a new id works from any checkpoint.
    const fork = await e.loadThread('x', 'x:2', { forkAs: 'x-fork' });
    const { result: forked } = await e.run(fork);
    expect(forked.status).toBe('COMPLETED');
    expect((await store.load('x'))!.conversation.messages.length).toBe(
      thread.conversation.getTotalMessageCount(),
    );
  });

  it('refuses a save by rejecting, never by throwing, and keeps what it had', async () => {
    const store = new InMemoryCheckpointStore();
    await engine(store).run('trip', { threadId: 'r' });
    const stored = (await store.load('r'))!;
    const before = await store.list('r');
    const stale = {
      id: 'r:stale',
      threadId: 'r',
      sequence: 99,
      parentId: 'r:1',
      createdAt: new Date().toISOString(),
      state: stored.state,
      conversation: { version: 1 as const, from: { messages: 0, log: 0 }, messages: [], log: [] },
    };
    let saving: Promise<void> | undefined;
    expect(() => {
      saving = store.save(stale);
    }).not.toThrow();
    await expect(saving).rejects.toMatchObject({ code: 'CHECKPOINT_CONFLICT' });
    // The stored conversation continued, but from the wrong parent checkpoint.
    const extent = {
      messages: stored.conversation.messages.length,
      log: stored.conversation.log.length,
    };
    const wrongParent = { ...stale, conversation: { ...stale.conversation, from: extent } };
    await expect(store.save(wrongParent)).rejects.toMatchObject({
      code: 'CHECKPOINT_CONFLICT',
      parent: { expected: before.at(-1)!.id, got: 'r:1' },
    });
    expect(await store.list('r')).toEqual(before);
  });

  it('prunes old checkpoints but keeps every message', async () => {
    const store = new InMemoryCheckpointStore();
    const { thread } = await engine(store).run('trip', { threadId: 'p' });
    const before = (await store.list('p')).length;
    expect(await store.prune('p', { keepLast: 2 })).toBe(before - 2);
    expect(await store.list('p')).toHaveLength(2);
    expect((await store.load('p'))!.conversation.messages).toHaveLength(
      thread.conversation.getTotalMessageCount(),
    );
    await expect(store.prune('p', { keepLast: 0 })).rejects.toThrow(/keepLast/);
    expect(await store.delete('p')).toBe(true);
    expect(await store.load('p')).toBeUndefined();
  });
});
