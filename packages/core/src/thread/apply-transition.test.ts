import { describe, expect, it } from 'vitest';
import { applyTransition } from './apply-transition.js';
import type { ThreadState } from './thread-state.js';

const state: ThreadState = Object.freeze({
  threadId: 't',
  workflowId: 'w',
  workflowVersion: '1',
  status: 'RUNNING',
  step: 3,
  currentNodeId: 'a',
  variables: Object.freeze({ n: 1 }),
  nodeOutputs: Object.freeze({}),
  dynamicTools: Object.freeze([]),
  toolFailures: Object.freeze(Object.create(null)),
  firedTriggers: Object.freeze([]),
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('applyTransition', () => {
  it('records a completed node without touching the state it was given', () => {
    const next = applyTransition(state, {
      type: 'node-completed',
      nodeId: 'a',
      step: 3,
      next: 'b',
      output: 'out',
      end: false,
    });
    expect(next).toMatchObject({ step: 4, currentNodeId: 'b', lastOutput: 'out' });
    expect(next.nodeOutputs).toEqual({ a: 'out' });
    expect(next.output).toBeUndefined();
    expect(Object.isFrozen(next)).toBe(true);
    expect(state.step).toBe(3);
    // Every state has the same keys in the same order (one hidden class on the hot path).
    expect(Object.keys(next)).toEqual(
      Object.keys(applyTransition(state, { type: 'variables-set', variables: {} })),
    );
  });

  it('starts and finishes a run with every other field kept, in the keys of every state', () => {
    const started = applyTransition(
      { ...state, status: 'FAILED', error: { code: 'X', message: 'm' } },
      { type: 'run-started' },
    );
    expect(started).toMatchObject({ status: 'RUNNING', step: 3, currentNodeId: 'a' });
    expect(started.error).toBeUndefined();
    const finished = applyTransition(started, {
      type: 'finished',
      status: 'COMPLETED',
      error: undefined,
      output: { n: 2 },
    });
    expect(finished).toMatchObject({ status: 'COMPLETED', output: { n: 2 }, step: 3 });
    expect(finished.variables).toBe(state.variables);
    expect(Object.isFrozen(finished)).toBe(true);
    const keys = Object.keys(applyTransition(state, { type: 'variables-set', variables: {} }));
    expect(Object.keys(started)).toEqual(keys);
    expect(Object.keys(finished)).toEqual(keys);
  });

  it('keeps a node id `__proto__` as an own key', () => {
    const next = applyTransition(state, {
      type: 'node-completed',
      nodeId: '__proto__',
      step: 3,
      next: undefined,
      output: 1,
      end: true,
    });
    expect(Object.hasOwn(next.nodeOutputs, '__proto__')).toBe(true);
    expect(next.output).toBe(1);
  });

  it('ends, pauses, restores and runs recipes', () => {
    const ended = applyTransition(state, {
      type: 'ended',
      status: 'FAILED',
      error: { code: 'X', message: 'm' },
    });
    expect(ended).toMatchObject({ status: 'FAILED', error: { code: 'X' } });
    expect(applyTransition(ended, { type: 'run-started' }).error).toBeUndefined();
    expect(applyTransition(ended, { type: 'restored', state })).toBe(state);
    expect(() =>
      applyTransition(state, { type: 'restored', state: { ...state, threadId: 'other' } }),
    ).toThrow(/belongs to thread other/);
    const fired = applyTransition(state, { type: 'trigger-fired', triggerId: 'tr' });
    expect(fired.firedTriggers).toEqual(['tr']);
    const changed = applyTransition(state, {
      type: 'recipe',
      recipe: (draft) => {
        draft.variables = { n: 2 };
      },
    });
    expect(changed.variables).toEqual({ n: 2 });
    expect(Object.isFrozen(changed)).toBe(true);
  });
});
