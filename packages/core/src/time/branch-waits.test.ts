import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

// SLEEP and WAIT_FOR_EVENT inside branches: the top-level thread waits on its branches, is woken
// (or signalled) for one branch at a time, and each wait is claimed once, like a thread's own.

const T0 = Date.parse('2026-03-01T00:00:00.000Z');
const MINUTE = 60_000;

/** PARALLEL: `a` sleeps a minute, `b` two; each then says which it is. */
const naps = new WorkflowBuilder('naps', '1')
  .start()
  .parallel('fan', {
    join: 'join',
    branches: [
      { name: 'a', start: 'nap_a' },
      { name: 'b', start: 'nap_b' },
    ],
  })
  .sleep('nap_a', { duration: MINUTE })
  .variable('done_a', { assign: { who: '"a"' } })
  .sleep('nap_b', { duration: 2 * MINUTE })
  .variable('done_b', { assign: { who: '"b"' } })
  .join('join', { outputVariable: 'results' })
  .end('end', { output: 'vars.results' })
  .edge('start', 'fan')
  .chain('nap_a', 'done_a', 'join')
  .chain('nap_b', 'done_b', 'join')
  .edge('join', 'end')
  .build();

/** MAP over orders: each branch waits for its order's payment, or times out after a minute. */
const payments = new WorkflowBuilder('payments', '1')
  .start()
  .map('each', { items: 'vars.orders', itemVariable: 'order', join: 'join', start: 'paid' })
  .waitForEvent('paid', {
    event: 'payment',
    match: 'event.order == vars.order',
    variable: 'payment',
    timeout: MINUTE,
    onTimeout: 'expired',
  })
  .variable('settled', { assign: { amount: 'vars.payment.amount' } })
  .variable('expired', { assign: { amount: '0' } })
  .join('join', { outputVariable: 'results' })
  .end('end', { output: 'vars.results' })
  .edge('start', 'each')
  .chain('paid', 'settled', 'join')
  .edge('expired', 'join')
  .edge('join', 'end')
  .build();

/** PARALLEL: `ask` waits for a person, `nap` sleeps a minute. */
const mixed = new WorkflowBuilder('mixed', '1')
  .start()
  .parallel('fan', {
    join: 'join',
    branches: [
      { name: 'ask', start: 'question' },
      { name: 'nap', start: 'sleep' },
    ],
  })
  .userInteraction('question', { prompt: 'Name?', variable: 'name' })
  .sleep('sleep', { duration: MINUTE })
  .join('join', { outputVariable: 'results' })
  .end('end', { output: 'vars.results' })
  .edge('start', 'fan')
  .edge('question', 'join')
  .edge('sleep', 'join')
  .edge('join', 'end')
  .build();

/** SUBWORKFLOW running `naps`: its branches wait two levels down. */
const nested = new WorkflowBuilder('nested', '1')
  .start()
  .subworkflow('sub', { workflow: 'naps' })
  .end('end', { output: 'nodes.sub' })
  .chain('start', 'sub', 'end')
  .build();

/** SUBWORKFLOW running `mixed`: the child in between waits for a person and a sleep at once. */
const nestedMixed = new WorkflowBuilder('nested-mixed', '1')
  .start()
  .subworkflow('sub', { workflow: 'mixed' })
  .end('end', { output: 'nodes.sub' })
  .chain('start', 'sub', 'end')
  .build();

function engineOn(store: InMemoryCheckpointStore, clock: { now: number }, owner = 'one') {
  const engine = new SkeinEngine({ store, owner, now: () => clock.now });
  engine.registerWorkflow(naps);
  engine.registerWorkflow(nested);
  engine.registerWorkflow(nestedMixed);
  engine.registerWorkflow(payments);
  engine.registerWorkflow(mixed);
  return engine;
}

describe('durable waits in branches', () => {
  it('sleeps in parallel branches: the thread waits, wakes once per branch, then joins', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: T0 };
    const engine = engineOn(store, clock);
    const { result } = await engine.run('naps', { threadId: 'n' });
    expect(result.status).toBe('WAITING');
    expect(result.pending).toMatchObject({
      kind: 'branches',
      waiting: [
        { path: 'fan/a', reason: 'sleep', wakeAt: '2026-03-01T00:01:00.000Z' },
        { path: 'fan/b', reason: 'sleep', wakeAt: '2026-03-01T00:02:00.000Z' },
      ],
    });
    // Only the top-level thread is woken: its wake is its earliest branch's.
    expect(await store.listWakes()).toEqual([{ threadId: 'n', at: T0 + MINUTE }]);
    // A caller cannot wake a sleeping branch.
    await expect(engine.resume('n', { branch: 'fan/a', input: 'now' })).rejects.toMatchObject({
      code: 'THREAD_STATE',
    });

    clock.now = T0 + MINUTE;
    const first = await engine.wakeDue();
    expect(first.map((r) => r.threadId)).toEqual(['n']);
    const after = await first[0]!.result;
    expect(after.status).toBe('WAITING');
    expect(after.pending).toMatchObject({ kind: 'branches', waiting: [{ path: 'fan/b' }] });
    expect(await store.listWakes()).toEqual([{ threadId: 'n', at: T0 + 2 * MINUTE }]);
    // Not due yet: nothing happens.
    expect(await engine.wakeDue()).toEqual([]);

    clock.now = T0 + 2 * MINUTE;
    const second = await engine.wakeDue();
    const done = await second[0]!.result;
    expect(done.status).toBe('COMPLETED');
    // Each branch's last output, in branch order: when its sleep was due.
    expect(done.output).toEqual(['2026-03-01T00:01:00.000Z', '2026-03-01T00:02:00.000Z']);
    expect(await store.listWakes()).toEqual([]);
    engine.close();
  });

  it('wakes a branch exactly once when two engines race for it', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: T0 };
    await engineOn(store, clock).run('naps', { threadId: 'race' });
    clock.now = T0 + MINUTE;
    const a = engineOn(store, clock, 'a');
    const b = engineOn(store, clock, 'b');
    const runs = [...(await a.wakeDue()), ...(await b.wakeDue())];
    expect(runs).toHaveLength(1);
    await runs[0]!.result;
    const states = (await store.listStates('race')).map((s) => s.state);
    // fan/a's sleep completed once: one claim of the top-level wait for it.
    expect(states.filter((s) => s.pending?.answer).length).toBe(1);
    a.close();
    b.close();
  });

  it('signals branches that wait for an event, each once, and times out the rest', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: T0 };
    const engine = engineOn(store, clock);
    const { result } = await engine.run('payments', {
      threadId: 'p',
      variables: { orders: [1, 2, 2, 3] },
    });
    expect(result.status).toBe('WAITING');
    expect(result.pending).toMatchObject({
      kind: 'branches',
      waiting: [0, 1, 2, 3].map((i) => ({ path: `each[${i}]`, reason: 'event', event: 'payment' })),
    });
    // The branches are indexed as waiting for the event; the top-level thread holds the deadline.
    expect(await store.listWaiting('payment')).toHaveLength(4);
    expect(await store.listWakes()).toEqual([{ threadId: 'p', at: T0 + MINUTE }]);

    // One event that two branches match reaches both, one after the other.
    const paid = await engine.signal('payment', { order: 2, amount: 20 });
    // The branches that took it are reported (their own thread ids, under the top-level one).
    expect(new Set(paid.delivered).size).toBe(2);
    for (const id of paid.delivered) expect(id.startsWith('p/')).toBe(true);
    const again = await paid.runs[1]!.result;
    expect(again.status).toBe('WAITING');
    expect(again.pending).toMatchObject({ waiting: [{ path: 'each[0]' }, { path: 'each[3]' }] });
    // The same event again: nobody waits for order 2 any more.
    expect((await engine.signal('payment', { order: 2, amount: 99 })).delivered).toEqual([]);
    const one = await engine.signal('payment', { order: 1, amount: 10 });
    expect(one.delivered).toHaveLength(1);
    await one.runs[0]!.result;
    expect(await store.listWaiting('payment')).toHaveLength(1);

    // Order 3 is never paid: its wait times out, and the thread joins.
    clock.now = T0 + MINUTE;
    const woken = await engine.wakeDue();
    const done = await woken[0]!.result;
    expect(done.status).toBe('COMPLETED');
    // Each branch's last output: the payment, or null for the wait that timed out.
    expect(done.output).toEqual([
      { order: 1, amount: 10 },
      { order: 2, amount: 20 },
      { order: 2, amount: 20 },
      null,
    ]);
    engine.close();
  });

  it('is PAUSED while a branch waits for a person, and the engine still wakes the sleeping one', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: T0 };
    const engine = engineOn(store, clock);
    const { result } = await engine.run('mixed', { threadId: 'm' });
    expect(result.status).toBe('PAUSED');
    expect(await store.listWakes()).toEqual([{ threadId: 'm', at: T0 + MINUTE }]);
    clock.now = T0 + MINUTE;
    const [woken] = await engine.wakeDue();
    const after = await woken!.result;
    expect(after.status).toBe('PAUSED');
    expect(after.pending).toMatchObject({ waiting: [{ path: 'fan/ask', reason: 'user-input' }] });
    const answered = await engine.resume('m', { branch: 'fan/ask', input: 'Ada' });
    expect(answered.result.status).toBe('COMPLETED');
    engine.close();
  });

  it('wakes branches two levels down, through a SUBWORKFLOW', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: T0 };
    const engine = engineOn(store, clock);
    const { result } = await engine.run('nested', { threadId: 'deep' });
    expect(result.status).toBe('WAITING');
    expect(result.pending).toMatchObject({
      waiting: [
        { path: 'sub/fan/a', reason: 'sleep' },
        { path: 'sub/fan/b', reason: 'sleep' },
      ],
    });
    clock.now = T0 + 2 * MINUTE;
    const first = await (await engine.wakeDue())[0]!.result;
    expect(first.status).toBe('WAITING');
    const [second] = await engine.wakeDue();
    const done = await second!.result;
    expect(done.status).toBe('COMPLETED');
    expect(done.output).toEqual(['2026-03-01T00:01:00.000Z', '2026-03-01T00:02:00.000Z']);
    engine.close();
  });

  it("delivers a branch's webhook once, through its top-level thread", async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: T0 };
    const engine = engineOn(store, clock);
    await engine.run('payments', { threadId: 'w', variables: { orders: [7] } });
    const [branch] = await store.listWaiting('payment');
    const token = await engine.createWebhook(branch!);
    const [first, second] = await Promise.all([
      engine.deliverWebhook(token, { order: 7, amount: 70 }),
      engine.deliverWebhook(token, { order: 7, amount: 71 }),
    ]);
    const delivered = [first, second].filter((d) => d.status === 'delivered');
    expect(delivered).toHaveLength(1);
    const run = delivered[0]!.status === 'delivered' ? delivered[0]!.run : undefined;
    const done = await run!.result;
    expect(done.status).toBe('COMPLETED');
    expect([[{ order: 7, amount: 70 }], [{ order: 7, amount: 71 }]]).toContainEqual(done.output);
    engine.close();
  });

  it('wakes a sleeping branch below a child that also waits for a person', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: T0 };
    const engine = engineOn(store, clock);
    const { result } = await engine.run('nested-mixed', { threadId: 'nm' });
    expect(result.status).toBe('PAUSED');
    clock.now = T0 + MINUTE;
    const [woken] = await engine.wakeDue();
    const after = await woken!.result;
    expect(after.status).toBe('PAUSED');
    expect(after.pending).toMatchObject({ waiting: [{ path: 'sub/fan/ask' }] });
    const answered = await engine.resume('nm', { branch: 'sub/fan/ask', input: 'Ada' });
    expect(answered.result.status).toBe('COMPLETED');
    engine.close();
  });
});
