import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyTransition } from './apply-transition.js';
import type { PendingInteraction, ThreadState } from './thread-state.js';
import type { ThreadTransition } from './thread-transition.js';

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
  });

  it('starts and finishes a run with every other field kept', () => {
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

  it('finishes, pauses, claims, restores and counts', () => {
    const ended = applyTransition(state, {
      type: 'finished',
      status: 'FAILED',
      error: { code: 'X', message: 'm' },
    });
    expect(ended).toMatchObject({ status: 'FAILED', error: { code: 'X' } });
    expect(ended.output).toBeUndefined();
    expect(applyTransition(ended, { type: 'run-started' }).error).toBeUndefined();
    expect(applyTransition(ended, { type: 'restored', state })).toBe(state);
    expect(() =>
      applyTransition(state, { type: 'restored', state: { ...state, threadId: 'other' } }),
    ).toThrow(/belongs to thread other/);
    // Whose thread it is never changes, not even by going back to another state.
    expect(() =>
      applyTransition(state, { type: 'restored', state: { ...state, principal: 'user-b' } }),
    ).toThrow(/belongs to principal "user-b", thread t to undefined/);
    const fired = applyTransition(state, { type: 'trigger-fired', triggerId: 'tr' });
    expect(fired.firedTriggers).toEqual(['tr']);
    const paused = applyTransition(state, {
      type: 'paused',
      pending: { kind: 'user-input', nodeId: 'a' },
      toolFailures: { search: 2 },
    });
    expect(paused).toMatchObject({ status: 'PAUSED', toolFailures: { search: 2 } });
    const claimed = applyTransition(paused, { type: 'resume-claimed', input: 'yes' });
    expect(claimed).toMatchObject({
      status: 'RUNNING',
      pending: { kind: 'user-input', nodeId: 'a', answer: { input: 'yes' } },
    });
    expect(Object.isFrozen(claimed.pending)).toBe(true);
    expect(() => applyTransition(state, { type: 'resume-claimed', input: 1 })).toThrow(
      /no pause to claim/,
    );
    const completed = applyTransition(claimed, {
      type: 'node-completed',
      nodeId: 'a',
      step: 3,
      next: 'b',
      output: undefined,
      end: false,
      variables: Object.freeze({ n: 1, answer: 'yes' }),
    });
    expect(completed.pending).toBeUndefined();
    expect(completed.variables).toEqual({ n: 1, answer: 'yes' });
    expect(completed.nodeOutputs).toBe(state.nodeOutputs);
  });

  it('reopens an ended thread for a new turn at the node given, keeping what it did', () => {
    const done = applyTransition(state, {
      type: 'node-completed',
      nodeId: 'end',
      step: 4,
      next: undefined,
      output: 'bye',
      end: true,
    });
    const reopened = applyTransition(
      applyTransition(done, { type: 'finished', status: 'COMPLETED', error: undefined }),
      { type: 'reopened', at: 'start' },
    );
    expect(reopened).toMatchObject({ status: 'PENDING', currentNodeId: 'start', step: 5 });
    expect(reopened.output).toBeUndefined();
    expect(reopened.nodeOutputs).toBe(done.nodeOutputs);
  });
});

const transitions: fc.Arbitrary<ThreadTransition> = fc.oneof(
  fc.constant<ThreadTransition>({ type: 'run-started' }),
  fc.record({
    type: fc.constant('node-completed' as const),
    nodeId: fc.constantFrom('a', 'b', '__proto__', 'constructor'),
    step: fc.nat(100),
    next: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }),
    output: fc.option(fc.jsonValue(), { nil: undefined }),
    end: fc.boolean(),
  }),
  fc.record({ type: fc.constant('jumped' as const), next: fc.constantFrom('a', 'b') }),
  fc.record({ type: fc.constant('reopened' as const), at: fc.constantFrom('a', 'b') }),
  fc.record({
    type: fc.constant('paused' as const),
    pending: fc.constantFrom<PendingInteraction>(
      { kind: 'user-input', nodeId: 'a' },
      { kind: 'user-input', nodeId: 'a', deadline: '2026-01-02T00:00:00.000Z' },
      { kind: 'sleep', nodeId: 'b', wakeAt: '2026-01-02T00:00:00.000Z' },
      { kind: 'event', nodeId: 'b', event: 'paid' },
    ),
  }),
  fc.record({
    type: fc.constant('resume-claimed' as const),
    input: fc.jsonValue().map((v) => Object.freeze(v)),
    timedOut: fc.option(fc.constant(true), { nil: undefined }),
  }),
  fc.record({
    type: fc.constant('webhook-created' as const),
    webhook: fc.constant({ tokenHash: 'ab', createdAt: '2026-01-01T00:00:00.000Z' }),
  }),
  fc.record({
    type: fc.constant('forked' as const),
    from: fc.record({ threadId: fc.constant('parent'), checkpointId: fc.constant('parent:3') }),
  }),
  fc.record({
    type: fc.constant('upgraded' as const),
    workflowVersion: fc.constantFrom('2', '3'),
    currentNodeId: fc.option(fc.constantFrom('a', 'b'), { nil: undefined }),
    pending: fc.constant(undefined),
    variables: fc.constant(Object.freeze({ n: 2 })),
    nodeOutputs: fc.constant(Object.freeze({})),
  }),
  fc.record({
    type: fc.constant('finished' as const),
    status: fc.constantFrom('COMPLETED' as const, 'FAILED' as const, 'CANCELLED' as const),
    error: fc.constant(undefined),
  }),
  fc.record({
    type: fc.constant('variables-set' as const),
    variables: fc.dictionary(fc.string(), fc.integer()).map((v) => Object.freeze(v)),
  }),
  fc.record({ type: fc.constant('trigger-fired' as const), triggerId: fc.string() }),
  fc.record({
    type: fc.constant('dynamic-tools-changed' as const),
    names: fc.array(fc.string(), { maxLength: 3 }),
  }),
);

describe('applyTransition, for any sequence of transitions', () => {
  it('returns frozen states, never changes the one it was given, and keeps identity fields', () => {
    const owned: ThreadState = Object.freeze({ ...state, principal: 'user-a' });
    fc.assert(
      fc.property(
        fc.constantFrom(state, owned),
        fc.array(transitions, { maxLength: 40 }),
        (start, sequence) => {
          let current = start;
          for (const transition of sequence) {
            const before = JSON.stringify(current);
            const claimable = transition.type !== 'resume-claimed' || current.pending;
            const hookable =
              transition.type !== 'webhook-created' ||
              (current.pending?.kind === 'event' && !current.pending.answer);
            if (!claimable || !hookable) continue;
            const after = applyTransition(current, transition);
            expect(JSON.stringify(current)).toBe(before);
            expect(Object.isFrozen(after)).toBe(true);
            expect(after.threadId).toBe(state.threadId);
            expect(after.workflowId).toBe(state.workflowId);
            expect(after.createdAt).toBe(state.createdAt);
            expect(after.principal).toBe(start.principal);
            if (transition.type === 'node-completed') {
              expect(after.step).toBe(transition.step + 1);
              expect(after.pending).toBeUndefined();
              if (transition.output !== undefined)
                expect(Object.hasOwn(after.nodeOutputs, transition.nodeId)).toBe(true);
            }
            if (transition.type === 'finished') expect(after.status).toBe(transition.status);
            if (transition.type === 'paused') {
              // Time and outside events are the engine's to wake: WAITING; anything else PAUSED.
              const kind = transition.pending.kind;
              expect(after.status).toBe(
                kind === 'sleep' || kind === 'event' ? 'WAITING' : 'PAUSED',
              );
            }
            if (transition.type === 'resume-claimed') {
              expect(after.status).toBe('RUNNING');
              expect(after.pending?.kind).toBe(current.pending!.kind);
              expect(after.pending?.answer).toEqual(
                transition.timedOut ? { input: null, timedOut: true } : { input: transition.input },
              );
            }
            if (transition.type === 'webhook-created') {
              expect(after.status).toBe(current.status);
              expect(after.pending).toMatchObject({ kind: 'event', webhook: transition.webhook });
            }
            if (transition.type === 'forked') expect(after.forkedFrom).toEqual(transition.from);
            if (transition.type === 'upgraded') {
              expect(after.workflowVersion).toBe(transition.workflowVersion);
              expect(after.status).toBe(current.status);
              expect(after.step).toBe(current.step);
            } else if (transition.type !== 'restored')
              expect(after.workflowVersion).toBe(current.workflowVersion);
            current = after;
          }
        },
      ),
    );
  });
});
