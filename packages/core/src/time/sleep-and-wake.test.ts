import { afterEach, describe, expect, it, vi } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import { MAX_TIMER_MS } from './wake-timers.js';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const DAY = 86_400_000;

function napWorkflow(sleep: { duration?: number | string; until?: string }) {
  return new WorkflowBuilder('nap', '1')
    .start()
    .sleep('nap', sleep)
    .variable('done', { values: { woke: true } })
    .end('end', { output: 'nodes.nap' })
    .chain('start', 'nap', 'done', 'end')
    .build();
}

/** An engine on `store` with a clock the test moves. */
function engineOn(store: InMemoryCheckpointStore, clock: { now: number }, owner = 'a') {
  const engine = new SkeinEngine({ store, owner, now: () => clock.now });
  engine.registerWorkflow(napWorkflow({ duration: 'vars.ms' }));
  return engine;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('SLEEP', () => {
  it('waits WAITING with its wake time stored, and wakes once its time has come', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: T0 };
    const engine = engineOn(store, clock);
    const { result } = await engine.run('nap', { threadId: 't', variables: { ms: 3 * DAY } });
    expect(result.status).toBe('WAITING');
    expect(result.pending).toEqual({
      kind: 'sleep',
      nodeId: 'nap',
      wakeAt: '2026-03-04T00:00:00.000Z',
    });
    const stored = await store.load('t');
    expect(stored!.state).toMatchObject({ status: 'WAITING', pending: { kind: 'sleep' } });
    // Not yet: nothing wakes.
    clock.now = T0 + 3 * DAY - 1;
    expect(await engine.wakeDue()).toEqual([]);
    clock.now = T0 + 3 * DAY;
    const woken = await engine.wakeDue();
    expect(woken.map((w) => w.threadId)).toEqual(['t']);
    expect(await woken[0]!.result).toMatchObject({
      status: 'COMPLETED',
      output: '2026-03-04T00:00:00.000Z',
    });
    expect(await engine.wakeDue()).toEqual([]);
    engine.close();
  });

  it('wakes after a restart: a new engine on the same store finds the wake in recover()', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: T0 };
    const first = engineOn(store, clock, 'first');
    await first.run('nap', { threadId: 'r', variables: { ms: 60_000 } });
    first.close(); // the process goes away; only the store remains

    clock.now = T0 + 10 * DAY; // every process was down when the wake was due
    const second = engineOn(store, clock, 'second');
    const runs = await second.recover();
    expect(runs.map((r) => r.threadId)).toEqual(['r']);
    expect((await runs[0]!.result).status).toBe('COMPLETED');
    expect((await store.load('r'))!.state.variables).toEqual({ ms: 60_000, woke: true });
    second.close();
  });

  it('fires a wake exactly once when two engines on one store race for it', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: T0 };
    const a = engineOn(store, clock, 'a');
    const b = engineOn(store, clock, 'b');
    for (const id of ['x1', 'x2', 'x3']) await a.run('nap', { threadId: id, variables: { ms: 5 } });
    clock.now = T0 + 5;
    const [fromA, fromB] = await Promise.all([a.wakeDue(), b.wakeDue()]);
    const woken = [...fromA, ...fromB].map((r) => r.threadId).sort();
    expect(woken).toEqual(['x1', 'x2', 'x3']);
    await Promise.all([...fromA, ...fromB].map((r) => r.result));
    for (const id of ['x1', 'x2', 'x3']) {
      const infos = await store.list(id);
      // START, the wait, one claim (not two), the nodes after it and the finish.
      expect(infos.map((i) => `${i.status}@${i.step}`)).toEqual([
        'RUNNING@1',
        'WAITING@1',
        'RUNNING@1',
        'RUNNING@2',
        'RUNNING@3',
        'COMPLETED@4',
      ]);
    }
    a.close();
    b.close();
  });

  it('sleeps until an ISO time from an expression, and not at all for a time already past', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: T0 };
    const engine = new SkeinEngine({ store, now: () => clock.now });
    engine.registerWorkflow({ ...napWorkflow({ until: 'vars.at' }), id: 'until' });
    const later = await engine.run('until', { variables: { at: '2026-03-02T12:00:00Z' } });
    expect(later.result.pending).toMatchObject({ wakeAt: '2026-03-02T12:00:00.000Z' });
    const past = await engine.run('until', { variables: { at: '2020-01-01T00:00:00Z' } });
    expect(past.result).toMatchObject({ status: 'COMPLETED', output: '2020-01-01T00:00:00.000Z' });
    const bad = await engine.run('until', { variables: { at: 'tomorrow' } });
    expect(bad.result.status).toBe('FAILED');
    expect(bad.result.error).toMatchObject({ code: 'WAIT_TIME_INVALID', nodeId: 'nap' });
    engine.close();
  });

  it('refuses execute and resume of a WAITING thread, saying what wakes it', async () => {
    const store = new InMemoryCheckpointStore();
    const engine = engineOn(store, { now: T0 });
    const { thread } = await engine.run('nap', { variables: { ms: 1_000 } });
    await expect(engine.run(thread)).rejects.toMatchObject({
      code: 'THREAD_STATE',
      message: expect.stringMatching(/sleeps until .*wakeDue/),
    });
    await expect(engine.resume(thread, 'now')).rejects.toMatchObject({ code: 'THREAD_STATE' });
    engine.close();
  });

  it('wakes by itself on this engine timer, chaining timers past 2^31 - 1 ms', async () => {
    vi.useFakeTimers({ now: T0 });
    const setTimer = vi.spyOn(globalThis, 'setTimeout');
    const store = new InMemoryCheckpointStore();
    const engine = new SkeinEngine({ store });
    engine.registerWorkflow(napWorkflow({ duration: 40 * DAY }));
    const completed = new Promise((resolve) => engine.events.on('thread:completed', resolve));
    const { result } = await engine.run('nap', { threadId: 'long' });
    expect(result.status).toBe('WAITING');
    await vi.advanceTimersByTimeAsync(40 * DAY - 1);
    expect((await store.load('long'))!.state.status).toBe('WAITING');
    await vi.advanceTimersByTimeAsync(1);
    await completed;
    expect((await store.load('long'))!.state.status).toBe('COMPLETED');
    const delays = setTimer.mock.calls.map((c) => c[1] ?? 0);
    expect(Math.max(...delays)).toBeLessThanOrEqual(MAX_TIMER_MS);
    expect(delays.filter((d) => d === MAX_TIMER_MS).length).toBeGreaterThanOrEqual(1);
    engine.close();
  });
});
