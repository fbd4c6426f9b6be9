import { contentText, type LLMMessage } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { ScriptFunction } from '../testing/types.js';
import type { Tool } from '../tools/tool.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import { durableThreadConformance } from './durable-thread-conformance.js';
import { durableWaitConformance } from './durable-wait-conformance.js';
import { forkConformance } from './fork-conformance.js';
import { leaseConformance } from './lease-conformance.js';
import { partsConformance } from './parts-conformance.js';
import { principalConformance } from './principal-conformance.js';

export interface ConformanceSubject {
  readonly store: CheckpointStore;
  /** A new store over the same data (a new process after a crash); default: the same store. */
  reopen?(): Promise<CheckpointStore>;
  cleanup?(): Promise<void>;
}

const weather: Tool<{ city: string }> = {
  name: 'weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
  execute: ({ city }) => ({ city, sky: city.length % 2 ? 'sunny' : 'rain', unicode: 'ß→✓ 東京' }),
};

// A pure function of what the model sees, so a resumed run asks and answers the same.
const model: ScriptFunction = (request) => {
  const last = request.messages.at(-1)!;
  if (last.role === 'user')
    return { toolCalls: [{ name: 'weather', arguments: { city: contentText(last.content) } }] };
  const result = JSON.parse(contentText(last.content));
  return { content: `It is ${result.sky} in ${result.city}.` };
};

function workflow() {
  return new WorkflowBuilder('conformance', '1')
    .initialTools(['weather'])
    .variables({ defaults: { visits: 0 } })
    .start()
    .llm('first', { systemPrompt: 'Be brief.', prompt: 'Rome' })
    .variable('count', {
      assign: { visits: 'vars.visits + 1' },
      message: { role: 'user', content: 'noted {{ vars.visits }}' },
    })
    .contextProcessor('reset', [{ type: 'CLEAR', keepSystemMessage: true }])
    .llm('second', { prompt: 'Oslo' })
    .userInteraction('ask', { prompt: 'More?', variable: 'answer' })
    .end('end', { output: 'nodes.second' })
    .chain('start', 'first', 'count', 'reset', 'second', 'ask', 'end')
    .build();
}

function engineOn(store: CheckpointStore): SkeinEngine {
  const engine = new SkeinEngine({ llm: new ScriptedLLMClient(model), store });
  engine.registerTool(weather);
  engine.registerWorkflow(workflow());
  return engine;
}

const plain = (messages: readonly LLMMessage[]) => JSON.parse(JSON.stringify(messages));

/**
 * Values every store must give back exactly as they went in (what JSON carries: the engine
 * refuses the rest where it enters state). Strings hold every kind of character, lone surrogates
 * included, since JSON escapes them; numbers hold the edges of doubles.
 */
function awkwardValues(): Record<string, unknown> {
  let deep: unknown = 'bottom';
  for (let i = 0; i < 100; i++) deep = i % 2 ? { next: deep } : [deep];
  return {
    empty: '',
    unicode: 'ß→✓ 東京 👩‍👩‍👧 עברית e\u0301',
    controls: '\u0000\u0001\t\n\r\u2028\u2029"\\\u007f',
    lone: ['\ud800', 'a\udfffb', '\udc00\ud800'],
    long: 'x'.repeat(100_000),
    numbers: [
      0,
      1,
      -1,
      0.1,
      0.1 + 0.2,
      1e-7,
      1e21,
      5e-324,
      1.7976931348623157e308,
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
      2 ** 53 + 2,
      123456789.12345679,
    ],
    flags: [true, false],
    nothing: null,
    nulls: [null, null],
    emptyArray: [],
    emptyObject: {},
    nested: { a: [{ b: { c: [[[]], {}] } }] },
    deep,
    nullPrototype: Object.assign(Object.create(null), { x: 1, toString: 'own' }),
    keys: JSON.parse('{"__proto__":1,"constructor":2,"toString":3,"":4,"a.b":5,"0":6,"ü":7}'),
  };
}

/**
 * The shared test suite every `CheckpointStore` must pass (run it from a vitest test file):
 * round trips of threads holding every message kind, exact round trips of awkward values (a
 * resumed thread must see what it stored), a failed save that leaves the store readable and the
 * thread resumable, ordering, concurrent writers to different threads, resume after a crash,
 * listing, deleting, pruning, refusing checkpoints that would lose messages, thread leases, resumes
 * that run a side effect once however many race, recovery of threads a dead process left, and
 * durable waits: a stored wake fired once after a restart, a signal delivered once; forks that
 * share the conversation they continue and keep it when the thread they came from goes; and the
 * principal a thread belongs to, kept through checkpoints, forks and child threads, with a
 * principal's view finding only its own threads; and messages in parts.
 */
export function runCheckpointStoreConformance(
  name: string,
  create: () => Promise<ConformanceSubject>,
): void {
  describe(`CheckpointStore conformance: ${name}`, () => {
    const withStore = async (test: (subject: ConformanceSubject) => Promise<void>) => {
      const subject = await create();
      try {
        await test(subject);
      } finally {
        await subject.store.close?.();
        await subject.cleanup?.();
      }
    };

    it('round-trips a thread with every message kind, state and batches', () =>
      withStore(async ({ store, reopen }) => {
        const engine = engineOn(store);
        const { thread, result } = await engine.run('conformance', {
          threadId: 'round-trip',
          input: 'hello',
        });
        expect(result.status).toBe('PAUSED');
        const reopened = reopen ? await reopen() : store;
        const loaded = await reopened.load('round-trip');
        expect(loaded).toBeDefined();
        expect(loaded!.conversation.messages).toEqual(plain(thread.conversation.getAllMessages()));
        const roles = new Set(loaded!.conversation.messages.map((m) => m.role));
        expect(roles).toEqual(new Set(['system', 'user', 'assistant', 'tool']));
        expect(
          loaded!.conversation.messages.some(
            (m) => m.toolCalls?.length && m.metadata === undefined,
          ),
        ).toBe(true);
        expect(loaded!.state).toEqual(JSON.parse(JSON.stringify(thread.state)));
        const rebuilt = await engineOn(reopened).loadThread('round-trip');
        expect(rebuilt.conversation.getMessages()).toEqual(thread.conversation.getMessages());
        expect(rebuilt.conversation.listBatches()).toEqual(thread.conversation.listBatches());
        expect(rebuilt.conversation.getUsage()).toEqual(thread.conversation.getUsage());
        if (reopened !== store) await reopened.close?.();
      }));

    it('round-trips values exactly: unicode, lone surrogates, number edges, nesting, odd keys', () =>
      withStore(async ({ store, reopen }) => {
        const engine = engineOn(store);
        engine.registerWorkflow(
          new WorkflowBuilder('values', '1')
            .start()
            .userInteraction('ask', { variable: 'answer' })
            .end('end', { output: 'vars' })
            .chain('start', 'ask', 'end')
            .build(),
        );
        const values = awkwardValues();
        const thread = engine.createThread('values', {
          threadId: 'values',
          input: values,
          variables: { ...values, negativeZero: -0 },
          messages: [
            { role: 'user', content: values.unicode as string, metadata: { data: values } },
            { role: 'user', content: (values.lone as string[]).join('|') },
          ],
        });
        expect((await engine.run(thread)).result.status).toBe('PAUSED');
        const reopened = reopen ? await reopen() : store;
        const loaded = (await reopened.load('values'))!;
        const { negativeZero, ...variables } = loaded.state.variables;
        expect(variables).toEqual(values);
        // JSON has no -0: a store may give it back as 0. Nothing else may change.
        expect(negativeZero === 0).toBe(true);
        expect(loaded.state.input).toEqual(values);
        expect(Object.getOwnPropertyNames(variables.keys)).toContain('__proto__');
        expect(loaded.conversation.messages).toEqual(plain(thread.conversation.getAllMessages()));
        expect(loaded.conversation.messages.at(-1)!.content).toBe('\ud800|a\udfffb|\udc00\ud800');
        const again = engineOn(reopened);
        again.registerWorkflow(engine.workflows.get('values').definition);
        const { result } = await again.resume(await again.loadThread('values'), 'ok');
        expect(result.status).toBe('COMPLETED');
        const { negativeZero: _, ...output } = result.output as Record<string, unknown>;
        expect(output).toEqual({ ...values, answer: 'ok' });
        if (reopened !== store) await reopened.close?.();
      }));

    it('stays readable after a failed save, and the thread resumes from what it holds', () =>
      withStore(async ({ store, reopen }) => {
        // The disk fails under the store: saves throw until `failures` runs out.
        let failures = 0;
        const flaky: CheckpointStore = {
          save: async (checkpoint) => {
            if (failures > 0) {
              failures--;
              throw new Error('disk full');
            }
            return store.save(checkpoint);
          },
          load: (threadId, checkpointId) => store.load(threadId, checkpointId),
          list: (threadId) => store.list(threadId),
          listStates: (threadId) => store.listStates(threadId),
          listThreads: () => store.listThreads(),
          listWakes: () => store.listWakes(),
          listWaiting: (event) => store.listWaiting(event),
          delete: (threadId) => store.delete(threadId),
          prune: (threadId, options) => store.prune(threadId, options),
          acquireLease: (id, lease) => store.acquireLease(id, lease),
          releaseLease: (id, owner) => store.releaseLease(id, owner),
        };
        const engine = engineOn(flaky);

        // Down for a while: nothing is written; the thread waits for the same answer again.
        const { thread } = await engine.run('conformance', { threadId: 'down' });
        const list = await store.list('down');
        const stored = await store.load('down');
        failures = Number.POSITIVE_INFINITY;
        const { result: failed } = await engine.resume(thread, 'no thanks');
        expect(failed.status).toBe('PAUSED');
        expect(failed.error?.code).toBe('CHECKPOINT_SAVE_FAILED');
        expect(thread.status).toBe('PAUSED');
        expect(await store.list('down')).toEqual(list);
        expect(await store.load('down')).toEqual(stored);
        failures = 0;
        const { result: done } = await engine.resume(thread, 'no thanks');
        expect(done.status).toBe('COMPLETED');
        const after = (await store.load('down'))!;
        expect(after.state.status).toBe('COMPLETED');
        expect(after.conversation.messages).toEqual(plain(thread.conversation.getAllMessages()));

        // One failed save: the store records how the attempt ended; another process resumes.
        const { thread: once } = await engine.run('conformance', { threadId: 'once' });
        failures = 1;
        expect((await engine.resume(once, 'no thanks')).result.error?.code).toBe(
          'CHECKPOINT_SAVE_FAILED',
        );
        const reopened = reopen ? await reopen() : store;
        const recorded = (await reopened.load('once'))!;
        expect(recorded.state.status).toBe('PAUSED');
        expect(recorded.state.error?.code).toBe('CHECKPOINT_SAVE_FAILED');
        const elsewhere = engineOn(reopened);
        const { result: resumed } = await elsewhere.resume(
          await elsewhere.loadThread('once'),
          'no thanks',
        );
        expect(resumed.status).toBe('COMPLETED');
        expect(resumed.output).toBe('It is rain in Oslo.');
        if (reopened !== store) await reopened.close?.();
      }));

    it('keeps checkpoints in order and loads any of them', () =>
      withStore(async ({ store }) => {
        const { thread } = await engineOn(store).run('conformance', { threadId: 'ordered' });
        const infos = await store.list('ordered');
        expect(infos.map((i) => i.sequence)).toEqual(infos.map((_, i) => i + 1));
        expect(infos.at(-1)!.id).toBe(thread.lastCheckpointId);
        expect(infos.map((i) => i.messageCount)).toEqual(
          [...infos.map((i) => i.messageCount)].sort((a, b) => a - b),
        );
        const second = await store.load('ordered', infos[1]!.id);
        expect(second!.checkpoint.sequence).toBe(2);
        expect(second!.conversation.messages).toHaveLength(infos[1]!.messageCount);
        expect(second!.conversation.messages).toEqual(
          plain(thread.conversation.getAllMessages()).slice(0, infos[1]!.messageCount),
        );
        expect(await store.load('ordered', 'no-such-checkpoint')).toBeUndefined();
        expect(await store.load('no-such-thread')).toBeUndefined();
        // Every checkpoint with its state in one read, as loading each would give them.
        const states = await store.listStates('ordered');
        expect(states.map((s) => s.checkpoint)).toEqual(infos);
        for (const [i, { state }] of states.entries())
          expect(state).toEqual((await store.load('ordered', infos[i]!.id))!.state);
        expect(await store.listStates('no-such-thread')).toEqual([]);
      }));

    it('takes concurrent writers to different threads', () =>
      withStore(async ({ store }) => {
        const engine = engineOn(store);
        const runs = await Promise.all(
          Array.from({ length: 12 }, (_, i) => engine.run('conformance', { threadId: `c${i}` })),
        );
        for (const { thread } of runs) {
          const loaded = await store.load(thread.threadId);
          expect(loaded!.conversation.messages).toEqual(
            plain(thread.conversation.getAllMessages()),
          );
        }
        const listed = (await store.listThreads()).map((t) => t.threadId).sort();
        expect(listed).toEqual(runs.map((r) => r.thread.threadId).sort());
      }));

    it('resumes a thread after a crash from what was stored', () =>
      withStore(async ({ store, reopen }) => {
        // Phase one: the thread runs until it waits for the user; then the process dies.
        const first = await engineOn(store).run('conformance', { threadId: 'crash' });
        expect(first.result.status).toBe('PAUSED');
        const storedBefore = plain(first.thread.conversation.getAllMessages());
        // Phase two: a new process opens the store and resumes the thread.
        const reopened = reopen ? await reopen() : store;
        const engine = engineOn(reopened);
        const thread = await engine.loadThread('crash');
        const { result } = await engine.resume(thread, 'no thanks');
        expect(result.status).toBe('COMPLETED');
        expect(result.output).toBe('It is rain in Oslo.');
        const after = (await reopened.load('crash'))!;
        expect(after.state.status).toBe('COMPLETED');
        expect(after.conversation.messages.slice(0, storedBefore.length)).toEqual(storedBefore);
        expect(after.conversation.messages.at(-1)).toMatchObject({
          role: 'user',
          content: 'no thanks',
        });
        if (reopened !== store) await reopened.close?.();
      }));

    it('refuses a checkpoint that does not continue the stored conversation', () =>
      withStore(async ({ store }) => {
        const engine = engineOn(store);
        await engine.run('conformance', { threadId: 'conflict' });
        const infos = await store.list('conflict');
        const thread = await engine.loadThread('conflict', infos[1]!.id);
        thread.dispatch({ type: 'finished', status: 'FAILED', error: undefined });
        const before = await store.load('conflict');
        await expect(engine.run(thread)).rejects.toMatchObject({ code: 'CHECKPOINT_CONFLICT' });
        expect(await store.load('conflict')).toEqual(before);
      }));

    it('refuses a stale writer whose parent is not the latest checkpoint', () =>
      withStore(async ({ store }) => {
        const engine = engineOn(store);
        await engine.run('conformance', { threadId: 'stale' });
        const infos = await store.list('stale');
        // The last two checkpoints cover the same messages (pausing adds none), so only the
        // parent tells the stale writer apart.
        const [older, latest] = infos.slice(-2);
        expect(older!.messageCount).toBe(latest!.messageCount);
        const stale = await engine.loadThread('stale', older!.id);
        const before = await store.list('stale');
        await expect(engine.run(stale)).rejects.toMatchObject({ code: 'CHECKPOINT_CONFLICT' });
        expect(await store.list('stale')).toEqual(before);
      }));

    it('lists, prunes and deletes', () =>
      withStore(async ({ store }) => {
        const engine = engineOn(store);
        await engine.run('conformance', { threadId: 'keep' });
        const { thread } = await engine.run('conformance', { threadId: 'gone' });
        const threads = await store.listThreads();
        expect(threads.find((t) => t.threadId === 'keep')).toMatchObject({
          workflowId: 'conformance',
          workflowVersion: '1',
          status: 'PAUSED',
        });
        const count = (await store.list('keep')).length;
        expect(await store.prune('keep', { keepLast: 2 })).toBe(count - 2);
        expect(await store.list('keep')).toHaveLength(2);
        expect((await store.load('keep'))!.conversation.messages.length).toBeGreaterThan(0);
        await expect(store.prune('keep', { keepLast: 0 })).rejects.toMatchObject({
          code: 'INVALID_ARGUMENT',
        });
        expect(await store.delete('gone')).toBe(true);
        expect(await store.delete('gone')).toBe(false);
        expect(await store.load('gone')).toBeUndefined();
        expect((await store.listThreads()).map((t) => t.threadId)).toEqual(['keep']);
        expect(thread.threadId).toBe('gone');
      }));
    leaseConformance(withStore);
    durableThreadConformance(withStore);
    durableWaitConformance(withStore);
    forkConformance(withStore, engineOn);
    principalConformance(withStore, engineOn);
    partsConformance(withStore);
  });
}
