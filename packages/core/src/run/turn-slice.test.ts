import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SkeinEngine } from '../engine/skein-engine.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import { RESUMED_MS, SLICE_MS } from './turn-slice.js';

const NODES = 12;
const THREADS = 16;
const NODE_MS = 1;

/** START → ROUTE × `length` → END (the tests' ROUTE handlers do synchronous CPU work). */
function chain(id: string, length: number) {
  const ids = Array.from({ length }, (_, i) => `r${i}`);
  let builder = new WorkflowBuilder(id, '1').start();
  for (const id of ids) builder = builder.route(id);
  return builder
    .end()
    .chain('start', ...ids, 'end')
    .build();
}

// The executor reads `performance.now()` to decide when to yield. On the real clock a busy
// machine (a test run beside others on 2 cores) stretches every node and every gap between them,
// so which nodes share a turn changed from run to run. Here time moves only when a node works:
// what the tests count depends on the executor's rules alone.
// Never set back: a clock that went back between tests would confuse what the tests count.
let clock = 0;

beforeEach(async () => {
  vi.spyOn(performance, 'now').mockImplementation(() => clock);
  // Every test starts on a fresh turn, so with a slice of its own.
  await new Promise((resolve) => setImmediate(resolve));
});

afterEach(() => {
  vi.restoreAllMocks();
});

/** A node that computes for `ms` rather than waits. */
function spin(ms: number): void {
  clock += ms;
}

/** Counts the turns of the event loop (its check phase) until stopped. */
function turnTicker(): { readonly turn: number; stop(): void } {
  let turn = 0;
  let running = true;
  const tick = () => {
    turn++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get turn() {
      return turn;
    },
    stop() {
      running = false;
    },
  };
}

describe('the event loop turns while many threads run synchronous nodes', () => {
  it('nodes between two turns stay near one slice plus one node per waiting thread', async () => {
    const ticker = turnTicker();
    const nodesPerTurn = new Map<number, number>();
    const engine = new SkeinEngine({
      handlers: {
        ROUTE: () => {
          spin(NODE_MS);
          nodesPerTurn.set(ticker.turn, (nodesPerTurn.get(ticker.turn) ?? 0) + 1);
          return { kind: 'next' };
        },
      },
    });
    engine.registerWorkflow(chain('busy', NODES));
    const runs = await Promise.all(
      Array.from({ length: THREADS }, (_, i) => engine.run('busy', { threadId: `t${i}` })),
    );
    ticker.stop();
    expect(runs.every((r) => r.result.status === 'COMPLETED')).toBe(true);
    const counts = [...nodesPerTurn.values()];
    expect(counts.reduce((a, b) => a + b, 0)).toBe(THREADS * NODES);
    // With a clock per thread, each of the 16 threads ran 4 ms before yielding: 64 nodes a turn.
    const bound = Math.ceil(SLICE_MS / NODE_MS) + 1 + THREADS;
    expect(Math.max(...counts)).toBeLessThanOrEqual(bound);
    expect(nodesPerTurn.size).toBeGreaterThan(1);
  });

  it('a thread woken after a yield runs on for RESUMED_MS, not one node per turn', async () => {
    // With one node per wake, a thread of small nodes that met a spent slice took one turn per
    // node to finish (a 5-node item in a dataset run lived 20 ms instead of 0.02 ms).
    // A small node, the engine's own work per node included (on the real clock it was 0.01 ms of
    // work and about 0.03 ms in all).
    const SMALL_MS = 0.03;
    const ticker = turnTicker();
    const wakes = new Map<string, Map<number, number>>();
    const engine = new SkeinEngine({
      handlers: {
        ROUTE: (ctx) => {
          spin(SMALL_MS);
          const byTurn = wakes.get(ctx.thread.threadId) ?? new Map<number, number>();
          byTurn.set(ticker.turn, (byTurn.get(ticker.turn) ?? 0) + 1);
          wakes.set(ctx.thread.threadId, byTurn);
          return { kind: 'next' };
        },
      },
    });
    engine.registerWorkflow(chain('small', 60));
    await Promise.all(
      Array.from({ length: 16 }, (_, i) => engine.run('small', { threadId: `s${i}` })),
    );
    ticker.stop();
    // Wakes but a thread's first and last: one node each before; now RESUMED_MS worth of them.
    const perWake = [...wakes.values()].flatMap((byTurn) => [...byTurn.values()].slice(1, -1));
    expect(perWake.length).toBeGreaterThan(0);
    const median = [...perWake].sort((a, b) => a - b)[perWake.length >> 1]!;
    expect(median).toBeGreaterThanOrEqual(2);
    expect(median).toBeGreaterThanOrEqual(Math.floor(RESUMED_MS / SMALL_MS));
    expect(RESUMED_MS).toBeLessThan(SLICE_MS);
  });
});
