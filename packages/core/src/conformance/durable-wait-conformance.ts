import { expect, it } from 'vitest';
import type { CheckpointStore } from '../checkpoint/checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import type { ConformanceSubject } from './checkpoint-store-conformance.js';

type WithStore = (test: (subject: ConformanceSubject) => Promise<void>) => Promise<void>;

const T0 = Date.parse('2026-03-01T00:00:00.000Z');

const napAndWait = new WorkflowBuilder('durable-wait', '1')
  .start()
  .sleep('nap', { duration: 60_000 })
  .waitForEvent('paid', { event: 'payment', match: 'event.id == vars.id', variable: 'paid' })
  .end('end', { output: 'vars.paid.amount' })
  .chain('start', 'nap', 'paid', 'end')
  .build();

/** The same waits in two branches of one thread: `nap` sleeps a minute, `pay` waits for a payment. */
const branchWaits = new WorkflowBuilder('branch-waits', '1')
  .start()
  .parallel('fan', {
    join: 'join',
    branches: [
      { name: 'nap', start: 'sleep' },
      { name: 'pay', start: 'paid' },
    ],
  })
  .sleep('sleep', { duration: 60_000 })
  .waitForEvent('paid', { event: 'payment', match: 'event.id == vars.id', variable: 'paid' })
  .join('join', { outputVariable: 'results' })
  .end('end', { output: 'vars.results' })
  .edge('start', 'fan')
  .edge('sleep', 'join')
  .edge('paid', 'join')
  .edge('join', 'end')
  .build();

function engineOn(store: CheckpointStore, owner: string, clock: { now: number }): SkeinEngine {
  const engine = new SkeinEngine({ store, owner, leaseMs: 1_000, now: () => clock.now });
  engine.registerWorkflow(napAndWait);
  engine.registerWorkflow(branchWaits);
  return engine;
}

/**
 * Conformance cases for durable time and outside events: a wake stored in one process and fired
 * by another exactly once, and a signal delivered exactly once when two processes deliver it.
 * They need nothing of a store but what the contract says (its status column holds `WAITING`).
 */
export function durableWaitConformance(withStore: WithStore): void {
  it('stores a wake, and fires it exactly once from two processes after a restart', () =>
    withStore(async ({ store, reopen }) => {
      const clock = { now: T0 };
      const first = engineOn(store, 'sleeper', clock);
      const { result } = await first.run('durable-wait', { threadId: 'nap', variables: { id: 1 } });
      expect(result.status).toBe('WAITING');
      first.close();
      const stored = await store.load('nap');
      expect(stored!.state).toMatchObject({
        status: 'WAITING',
        pending: { kind: 'sleep', wakeAt: '2026-03-01T00:01:00.000Z' },
      });
      expect((await store.listThreads()).find((t) => t.threadId === 'nap')!.status).toBe('WAITING');
      // The store indexes the wake of each thread's latest checkpoint.
      expect(await store.listWakes()).toEqual([{ threadId: 'nap', at: T0 + 60_000 }]);

      // Every process was down when the wake was due; two come back at once.
      clock.now = T0 + 3_600_000;
      const other = reopen ? await reopen() : store;
      const a = engineOn(store, 'a', clock);
      const b = engineOn(other, 'b', clock);
      const [ra, rb] = await Promise.all([a.recover(), b.recover()]);
      const woken = [...ra, ...rb];
      expect(woken.map((r) => r.threadId)).toEqual(['nap']);
      const after = await woken[0]!.result;
      // Woken once: it went on to wait for the payment.
      expect(after).toMatchObject({ status: 'WAITING', pending: { kind: 'event' } });
      const infos = await store.list('nap');
      expect(infos.filter((i) => i.status === 'WAITING')).toHaveLength(2);
      // Waiting for an event with no deadline: nothing to wake any more, and indexed by its event.
      expect(await other.listWakes()).toEqual([]);
      expect(await other.listWaiting('payment')).toEqual(['nap']);
      expect(await other.listWaiting('refund')).toEqual([]);
      a.close();
      b.close();
      if (other !== store) await other.close?.();
    }));

  it('delivers a signal to a waiting thread exactly once when two processes deliver it', () =>
    withStore(async ({ store, reopen }) => {
      const clock = { now: T0 };
      const first = engineOn(store, 'one', clock);
      await first.run('durable-wait', { threadId: 'pay', variables: { id: 7 } });
      await first.run('durable-wait', { threadId: 'other', variables: { id: 8 } });
      clock.now = T0 + 60_000;
      await Promise.all((await first.wakeDue()).map((r) => r.result));
      const other = reopen ? await reopen() : store;
      const second = engineOn(other, 'two', clock);
      const [x, y] = await Promise.all([
        first.signal('payment', { id: 7, amount: 10 }),
        second.signal('payment', { id: 7, amount: 20 }),
      ]);
      expect([...x.delivered, ...y.delivered]).toEqual(['pay']);
      await Promise.all([...x.runs, ...y.runs].map((r) => r.result));
      const paid = await store.load('pay');
      expect(paid!.state.status).toBe('COMPLETED');
      expect([10, 20]).toContain(paid!.state.output);
      expect((await store.load('other'))!.state.status).toBe('WAITING');
      expect(await store.listWaiting('payment')).toEqual(['other']);
      // Nobody waits for it any more: reported, not delivered.
      expect((await second.signal('payment', { id: 7, amount: 30 })).delivered).toEqual([]);
      first.close();
      second.close();
      if (other !== store) await other.close?.();
    }));

  it('wakes and signals waits in branches once each, through their top-level thread, after a restart', () =>
    withStore(async ({ store, reopen }) => {
      const clock = { now: T0 };
      const first = engineOn(store, 'first', clock);
      const { result } = await first.run('branch-waits', { threadId: 'fan', variables: { id: 4 } });
      expect(result.status).toBe('WAITING');
      first.close();
      expect(await store.listWakes()).toEqual([{ threadId: 'fan', at: T0 + 60_000 }]);
      expect((await store.listWaiting('payment')).map((id) => id.startsWith('fan/'))).toEqual([
        true,
      ]);

      clock.now = T0 + 3_600_000;
      const other = reopen ? await reopen() : store;
      const a = engineOn(store, 'a', clock);
      const b = engineOn(other, 'b', clock);
      const woken = [...(await a.recover()), ...(await b.recover())];
      expect(woken.map((r) => r.threadId)).toEqual(['fan']);
      expect(await woken[0]!.result).toMatchObject({ status: 'WAITING' });
      const [x, y] = await Promise.all([
        a.signal('payment', { id: 4, amount: 5 }),
        b.signal('payment', { id: 4, amount: 6 }),
      ]);
      expect([...x.delivered, ...y.delivered]).toHaveLength(1);
      const done = await [...x.runs, ...y.runs][0]!.result;
      expect(done.status).toBe('COMPLETED');
      expect(done.output).toEqual([
        '2026-03-01T00:01:00.000Z',
        { id: 4, amount: x.delivered.length ? 5 : 6 },
      ]);
      a.close();
      b.close();
      if (other !== store) await other.close?.();
    }));
}
