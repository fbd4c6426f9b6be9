import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { wakeOf } from '../thread/wake-of.js';

const HOUR = 3_600_000;

function sleeper(store: InMemoryCheckpointStore, clock: { now: number }) {
  const engine = new SkeinEngine({ store, now: () => clock.now });
  engine.registerWorkflow({
    id: 'nap',
    version: '1',
    nodes: [
      { id: 'start', type: 'START' },
      { id: 'nap', type: 'SLEEP', config: { duration: HOUR } },
      { id: 'end', type: 'END', config: { output: '"rested"' } },
    ],
    edges: [
      { from: 'start', to: 'nap' },
      { from: 'nap', to: 'end' },
    ],
  });
  return engine;
}

describe('engine.wake', () => {
  it('wakes one thread once its time has come, once across engines', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
    const first = sleeper(store, clock);
    const { thread, result } = await first.run('nap', { threadId: 'n1' });
    expect(result.status).toBe('WAITING');
    expect(wakeOf(thread.state)).toEqual({ threadId: 'n1', at: clock.now + HOUR, timedOut: false });
    // Not due yet by the engine's clock: nothing happens.
    expect(await first.wake('n1')).toBeUndefined();
    clock.now += HOUR;
    const second = sleeper(store, clock);
    const [a, b] = await Promise.all([first.wake('n1'), second.wake('n1')]);
    const runs = [a, b].filter((run) => run !== undefined);
    expect(runs).toHaveLength(1);
    expect(await runs[0]!.result).toMatchObject({ status: 'COMPLETED', output: 'rested' });
    expect(await first.wake('n1')).toBeUndefined();
    first.close();
    second.close();
  });

  it('wakes a thread the caller loaded, under its signal; isRunning sees the run', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
    const engine = sleeper(store, clock);
    await engine.run('nap', { threadId: 'n2' });
    clock.now += HOUR;
    const loaded = await engine.loadThread('n2');
    const controller = new AbortController();
    const run = await engine.wake(loaded, { signal: controller.signal });
    expect(engine.isRunning('n2')).toBe(true);
    expect(await run!.result).toMatchObject({ status: 'COMPLETED', output: 'rested' });
    // The loaded thread itself ran.
    expect(loaded.status).toBe('COMPLETED');
    expect(engine.isRunning('n2')).toBe(false);
    engine.close();
  });

  it('early: ends a wait that is not due, and an aborted signal cancels the run', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: Date.parse('2026-01-01T00:00:00Z') };
    const engine = sleeper(store, clock);
    await engine.run('nap', { threadId: 'n3' });
    const loaded = await engine.loadThread('n3');
    expect(await engine.wake(loaded)).toBeUndefined();
    const controller = new AbortController();
    controller.abort();
    const run = await engine.wake(loaded, { early: true, signal: controller.signal });
    expect(await run!.result).toMatchObject({ status: 'CANCELLED' });
    engine.close();
  });
});
