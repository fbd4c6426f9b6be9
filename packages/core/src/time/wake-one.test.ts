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
});
