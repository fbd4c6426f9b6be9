import { SkeinError } from '@skein/spec';
import fc from 'fast-check';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { BRANCH_WAIT_KINDS } from './branch-wait-kinds.js';
import { checkStoredPause } from './check-stored-pause.js';
import { isPauseKindName, PAUSE_KINDS, pauseKindOf } from './pause-kinds.js';
import type {
  BranchWait,
  PauseKindName,
  PauseOf,
  PendingInteraction,
} from './pending-interaction.js';

// One stored pause of each kind: the mapped type makes a kind without a sample a type error.
const SAMPLES: { readonly [K in PauseKindName]: PauseOf<K> } = {
  'user-input': {
    kind: 'user-input',
    nodeId: 'ask',
    prompt: 'Your name?',
    input: { type: 'string', minLength: 1 },
    deadline: '2030-01-01T00:00:00.000Z',
  },
  'tool-approval': {
    kind: 'tool-approval',
    nodeId: 'llm',
    round: 0,
    calls: [
      { id: 'c1', name: 'pay', arguments: '{}' },
      { id: 'c2', name: 'look', arguments: '{}' },
    ],
    awaiting: ['c1'],
  },
  branches: {
    kind: 'branches',
    nodeId: 'fan',
    waiting: [
      { path: 'a', threadId: 't/a', reason: 'sleep', wakeAt: '2030-01-02T00:00:00.000Z' },
      { path: 'b', threadId: 't/b', reason: 'user-input', input: { type: 'number' } },
    ],
  },
  sleep: { kind: 'sleep', nodeId: 'nap', wakeAt: '2030-01-03T00:00:00.000Z' },
  event: { kind: 'event', nodeId: 'hook', event: 'paid', deadline: '2030-01-04T00:00:00.000Z' },
};

const samples = Object.values(SAMPLES) as PendingInteraction[];

const refusal = (run: () => void) => {
  try {
    run();
  } catch (error) {
    return SkeinError.isInstance(error) ? error.code : 'not a SkeinError';
  }
  return undefined;
};

const broken = (pending: unknown) => {
  try {
    checkStoredPause(pending, (field, problem) => {
      throw new Error(`${field} ${problem}`);
    });
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
};

describe('PAUSE_KINDS', () => {
  it('has exactly one entry per kind of PendingInteraction, and one per branch reason', () => {
    expectTypeOf<keyof typeof PAUSE_KINDS>().toEqualTypeOf<PendingInteraction['kind']>();
    expectTypeOf<keyof typeof BRANCH_WAIT_KINDS>().toEqualTypeOf<BranchWait['reason']>();
    expect(Object.keys(PAUSE_KINDS).sort()).toEqual(Object.keys(SAMPLES).sort());
    for (const [name, entry] of Object.entries(PAUSE_KINDS)) expect(entry.kind).toBe(name);
    // Every kind but `branches` is also a reason a branch waits with.
    expect(Object.keys(BRANCH_WAIT_KINDS).sort()).toEqual(
      Object.keys(PAUSE_KINDS)
        .filter((k) => k !== 'branches')
        .sort(),
    );
  });

  it('is frozen, entries and all', () => {
    expect(Object.isFrozen(PAUSE_KINDS)).toBe(true);
    expect(Object.isFrozen(BRANCH_WAIT_KINDS)).toBe(true);
    for (const entry of Object.values(PAUSE_KINDS)) expect(Object.isFrozen(entry)).toBe(true);
  });

  it('knows its own names and no others', () => {
    for (const name of Object.keys(SAMPLES)) expect(isPauseKindName(name)).toBe(true);
    for (const name of ['', 'USER-INPUT', 'toString', '__proto__', 1, undefined])
      expect(isPauseKindName(name)).toBe(false);
  });

  it.each([
    ['user-input', 'caller', true],
    ['tool-approval', 'caller', false],
    ['branches', 'caller', false],
    ['sleep', 'engine', false],
    ['event', 'engine', false],
  ] as const)('%s is ended by the %s; a chat message answers it: %s', (kind, by, message) => {
    const pending = SAMPLES[kind];
    expect(pauseKindOf(pending).endedBy(pending)).toBe(by);
    expect(pauseKindOf(pending).takesMessage).toBe(message);
  });

  it('gives every kind details with its own name as the reason, and a sentence', () => {
    for (const pending of samples) {
      const entry = pauseKindOf(pending);
      expect(entry.details(pending).reason).toBe(pending.kind);
      expect(entry.waitingFor(pending)).toMatch(/^it /);
    }
    expect(pauseKindOf(SAMPLES['tool-approval']).details(SAMPLES['tool-approval'])).toEqual({
      reason: 'tool-approval',
      approvals: [{ toolCallId: 'c1', name: 'pay', arguments: '{}' }],
    });
  });

  it('wakes a sleep at its time, times out a deadline, and wakes branches at the earliest', () => {
    const wake = (pending: PendingInteraction) => pauseKindOf(pending).wake(pending);
    expect(wake(SAMPLES.sleep)).toEqual({ at: SAMPLES.sleep.wakeAt, timedOut: false });
    expect(wake(SAMPLES.event)).toEqual({ at: SAMPLES.event.deadline, timedOut: true });
    expect(wake(SAMPLES['user-input'])).toEqual({ at: '2030-01-01T00:00:00.000Z', timedOut: true });
    expect(wake(SAMPLES['tool-approval'])).toBeUndefined();
    expect(wake(SAMPLES.branches)).toEqual({
      at: '2030-01-02T00:00:00.000Z',
      timedOut: false,
      branch: 'a',
    });
  });

  it('refuses wrong answers before a claim and takes right ones', () => {
    const check = (pending: PendingInteraction, input: unknown) => () =>
      pauseKindOf(pending).checkAnswer('t', pending, input);
    expect(refusal(check(SAMPLES['user-input'], 'Ada'))).toBeUndefined();
    expect(refusal(check(SAMPLES['user-input'], ''))).toBe('RESUME_INPUT_INVALID');
    expect(refusal(check(SAMPLES['tool-approval'], { approvals: { c1: true } }))).toBeUndefined();
    expect(refusal(check(SAMPLES['tool-approval'], { approvals: { c2: true } }))).toBe(
      'RESUME_INPUT_INVALID',
    );
    expect(refusal(check(SAMPLES.branches, { branch: 'b', input: 3 }))).toBeUndefined();
    expect(refusal(check(SAMPLES.branches, { branch: 'b', input: 'x' }))).toBe(
      'RESUME_INPUT_INVALID',
    );
    expect(refusal(check(SAMPLES.branches, { branch: 'zz', input: 3 }))).toBe(
      'RESUME_INPUT_INVALID',
    );
    // A sleeping branch is the engine's to wake.
    expect(pauseKindOf(SAMPLES.branches).refuseCaller(SAMPLES.branches, { branch: 'a' })).toMatch(
      /^branch "a" sleeps until .*; the engine wakes it$/,
    );
  });

  it('accepts every sample as stored, and names the field of a broken one', () => {
    for (const pending of samples) expect(broken(pending)).toBeUndefined();
    expect(broken({ kind: 'nap', nodeId: 'n' })).toBe(
      'state.pending.kind must be "user-input", "tool-approval", "branches", "sleep" or "event"',
    );
    expect(broken({ ...SAMPLES.sleep, wakeAt: 'soon' })).toBe(
      'state.pending.wakeAt must be an ISO time',
    );
    expect(
      broken({ ...SAMPLES.branches, waiting: [{ path: 'a', threadId: 't', reason: 'sleep' }] }),
    ).toBe('state.pending.waiting[0].wakeAt must be a string');
    expect(
      broken({ ...SAMPLES.branches, waiting: [{ path: 'a', threadId: 't', reason: 'nap' }] }),
    ).toBe(
      'state.pending.waiting[0].reason must be "user-input", "tool-approval", "sleep" or "event"',
    );
  });

  it('shows a paused child to its parent as waits a parent can check answers against', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...samples),
        fc.stringMatching(/^[a-z]{1,8}$/),
        (pending, path) => {
          const waits = pauseKindOf(pending).branchWaits(pending, { path, threadId: 'child' });
          expect(waits.length).toBeGreaterThan(0);
          for (const wait of waits) {
            expect(wait.path === path || wait.path.startsWith(`${path}/`)).toBe(true);
            // Every wait is of a reason the parent knows, with what that reason requires.
            expect(Object.hasOwn(BRANCH_WAIT_KINDS, wait.reason)).toBe(true);
            expect(broken({ kind: 'branches', nodeId: 'p', waiting: [wait] })).toBeUndefined();
          }
          // The parent's pause ends by the engine exactly when the child's did.
          const parent: PendingInteraction = { kind: 'branches', nodeId: 'p', waiting: waits };
          expect(pauseKindOf(parent).endedBy(parent)).toBe(pauseKindOf(pending).endedBy(pending));
        },
      ),
    );
  });
});
