import { SNAPSHOT_VERSION } from '@skein/conversation';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import { countTo } from '../test-support/executor-fixtures.js';
import type { ThreadState } from '../thread/thread-state.js';
import type { Checkpoint } from './checkpoint-store.js';
import { InMemoryCheckpointStore } from './in-memory-checkpoint-store.js';

/** The in-memory store, with every checkpoint it was given recorded beside it. */
class RecordingStore extends InMemoryCheckpointStore {
  readonly given: Checkpoint[] = [];
  override save(checkpoint: Checkpoint): Promise<void> {
    this.given.push(checkpoint);
    return super.save(checkpoint);
  }
}

const START: ThreadState = Object.freeze({
  threadId: 't',
  workflowId: 'w',
  workflowVersion: '1',
  status: 'RUNNING',
  step: 0,
  currentNodeId: 'a',
  input: undefined,
  variables: Object.freeze({}),
  nodeOutputs: Object.freeze({}),
  lastOutput: undefined,
  output: undefined,
  error: undefined,
  pending: undefined,
  dynamicTools: Object.freeze([]),
  toolFailures: Object.freeze({}),
  firedTriggers: Object.freeze([]),
  createdAt: '2026-01-01T00:00:00.000Z',
  parent: undefined,
});

/** One node's worth of change: always a step, sometimes more (which makes the state whole). */
const change = fc.record({
  node: fc.constantFrom('a', 'b', undefined),
  variables: fc.option(fc.integer(), { nil: undefined }),
  status: fc.option(fc.constantFrom('RUNNING', 'PAUSED', 'COMPLETED') as fc.Arbitrary<'RUNNING'>, {
    nil: undefined,
  }),
  output: fc.option(fc.string(), { nil: undefined }),
});

function checkpointOf(state: ThreadState, sequence: number): Checkpoint {
  return {
    id: `t:${sequence}`,
    threadId: 't',
    sequence,
    ...(sequence > 1 ? { parentId: `t:${sequence - 1}` } : {}),
    createdAt: START.createdAt,
    state,
    conversation: {
      version: SNAPSHOT_VERSION,
      from: { messages: 0, log: 0 },
      messages: [],
      log: [],
    },
  };
}

describe('InMemoryCheckpointStore', () => {
  it('loads every checkpoint of a loop with the state it was given', async () => {
    const store = new RecordingStore();
    const engine = new SkeinEngine({ store });
    engine.registerWorkflow(countTo(50));
    const { thread } = await engine.run('loop');
    expect(store.given.length).toBeGreaterThan(100);
    for (const checkpoint of store.given) {
      const loaded = await store.load(thread.threadId, checkpoint.id);
      expect(loaded?.state).toStrictEqual(checkpoint.state);
      expect(Object.isFrozen(loaded?.state)).toBe(true);
    }
    const infos = await store.list(thread.threadId);
    expect(infos.map((i) => [i.id, i.status, i.step, i.currentNodeId])).toEqual(
      store.given.map((c) => [c.id, c.state.status, c.state.step, c.state.currentNodeId]),
    );
    // The latest is the very object saved, as before.
    expect((await store.load(thread.threadId))?.state).toBe(store.given.at(-1)?.state);
  });

  it('gives back what it was given for any sequence of changes, and after pruning', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(change, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 1, max: 31 }),
        async (changes, keepLast) => {
          const store = new InMemoryCheckpointStore();
          const states: ThreadState[] = [];
          let state = START;
          for (const c of changes) {
            state = Object.freeze({
              ...state,
              step: state.step + 1,
              currentNodeId: c.node,
              ...(c.variables === undefined
                ? {}
                : { variables: Object.freeze({ n: c.variables }) }),
              ...(c.status === undefined ? {} : { status: c.status }),
              ...(c.output === undefined ? {} : { lastOutput: c.output }),
            });
            states.push(state);
            await store.save(checkpointOf(state, states.length));
          }
          const dropped = await store.prune('t', { keepLast });
          expect(dropped).toBe(Math.max(0, states.length - keepLast));
          for (let i = 0; i < states.length; i++) {
            const loaded = await store.load('t', `t:${i + 1}`);
            if (i < dropped) expect(loaded).toBeUndefined();
            else {
              expect(loaded?.state).toStrictEqual(states[i]);
              expect(loaded?.checkpoint).toMatchObject({
                status: states[i]!.status,
                step: states[i]!.step,
              });
              expect(loaded?.checkpoint.currentNodeId).toBe(states[i]!.currentNodeId);
            }
          }
        },
      ),
    );
  });
});
