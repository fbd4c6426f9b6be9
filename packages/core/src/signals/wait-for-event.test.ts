import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { SkeinEngine } from '../engine/skein-engine.js';
import type { WarningEvent } from '../events/event-map.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';

const T0 = Date.parse('2026-03-01T00:00:00.000Z');

function paymentWorkflow() {
  return new WorkflowBuilder('order', '1')
    .start()
    .waitForEvent('paid', {
      event: 'payment',
      match: 'event.orderId == vars.orderId',
      variable: 'payment',
      addMessage: true,
      timeout: 60_000,
      onTimeout: 'expired',
    })
    .end('end', { output: 'vars.payment.amount' })
    .end('expired', { output: '"expired"' })
    .chain('start', 'paid', 'end')
    .build();
}

function engineOn(store: InMemoryCheckpointStore, clock: { now: number }, owner = 'a') {
  const engine = new SkeinEngine({ store, owner, now: () => clock.now });
  engine.registerWorkflow(paymentWorkflow());
  return engine;
}

describe('WAIT_FOR_EVENT and signal', () => {
  it('delivers an event to the threads whose match holds, once each, and reports the rest', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: T0 };
    const engine = engineOn(store, clock);
    const warnings: WarningEvent[] = [];
    engine.events.on('warning', (w) => warnings.push(w));
    const a = await engine.run('order', { threadId: 'a', variables: { orderId: 1 } });
    await engine.run('order', { threadId: 'b', variables: { orderId: 2 } });
    expect(a.result).toMatchObject({
      status: 'WAITING',
      pending: { kind: 'event', event: 'payment', deadline: '2026-03-01T00:01:00.000Z' },
    });

    const sent = await engine.signal('payment', { orderId: 1, amount: 30 });
    expect(sent.delivered).toEqual(['a']);
    expect(await sent.runs[0]!.result).toMatchObject({ status: 'COMPLETED', output: 30 });
    const done = await engine.getThread('a');
    expect(done!.variables.payment).toEqual({ orderId: 1, amount: 30 });
    expect(done!.conversation.getMessages().at(-1)).toMatchObject({
      role: 'user',
      content: '{"orderId":1,"amount":30}',
    });

    // The same event again: a has moved on, b does not match — nobody takes it, and it says so.
    const again = await engine.signal('payment', { orderId: 1, amount: 30 });
    expect(again.delivered).toEqual([]);
    expect(warnings.map((w) => w.code)).toEqual(['EVENT_UNDELIVERED']);
    expect((await store.load('b'))!.state.status).toBe('WAITING');
    engine.close();
  });

  it('delivers to a thread exactly once when two engines signal it at once', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: T0 };
    const first = engineOn(store, clock, 'first');
    const second = engineOn(store, clock, 'second');
    await first.run('order', { threadId: 'once', variables: { orderId: 7 } });
    const [x, y] = await Promise.all([
      first.signal('payment', { orderId: 7, amount: 1 }),
      second.signal('payment', { orderId: 7, amount: 2 }),
    ]);
    expect([...x.delivered, ...y.delivered]).toEqual(['once']);
    await Promise.all([...x.runs, ...y.runs].map((r) => r.result));
    const stored = await store.load('once');
    expect(stored!.state.status).toBe('COMPLETED');
    expect([1, 2]).toContain(stored!.state.output);
    first.close();
    second.close();
  });

  it('times out to onTimeout, or fails with WAIT_TIMED_OUT when there is none', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: T0 };
    const engine = engineOn(store, clock);
    engine.registerWorkflow(
      new WorkflowBuilder('strict', '1')
        .start()
        .waitForEvent('ci', { event: 'build', timeout: 'vars.wait' })
        .end('end')
        .chain('start', 'ci', 'end')
        .build(),
    );
    await engine.run('order', { threadId: 'late', variables: { orderId: 3 } });
    await engine.run('strict', { threadId: 'strict', variables: { wait: 1_000 } });
    clock.now = T0 + 60_000;
    const runs = await engine.wakeDue();
    const results = Object.fromEntries(
      await Promise.all(runs.map(async (r) => [r.threadId, await r.result] as const)),
    );
    expect(results.late).toMatchObject({ status: 'COMPLETED', output: 'expired' });
    expect(results.strict).toMatchObject({ status: 'FAILED' });
    expect(results.strict!.error).toMatchObject({ code: 'WAIT_TIMED_OUT', nodeId: 'ci' });
    // A signal after the timeout finds nobody.
    expect((await engine.signal('payment', { orderId: 3 })).delivered).toEqual([]);
    engine.close();
  });

  it('reports a match that cannot be evaluated for the thread, and delivers to the others', async () => {
    const store = new InMemoryCheckpointStore();
    const engine = engineOn(store, { now: T0 });
    engine.registerWorkflow(
      new WorkflowBuilder('math', '1')
        .start()
        .waitForEvent('n', { event: 'payment', match: 'event.amount * 2 > 10' })
        .end('end')
        .chain('start', 'n', 'end')
        .build(),
    );
    await engine.run('math', { threadId: 'math' });
    await engine.run('order', { threadId: 'ok', variables: { orderId: 'x' } });
    const sent = await engine.signal('payment', { orderId: 'x', amount: 'lots' });
    expect(sent.delivered).toEqual(['ok']);
    expect(sent.failedMatches).toEqual(['math']);
    engine.close();
  });

  it('refuses a payload that is not JSON, and a bad event name', async () => {
    const engine = engineOn(new InMemoryCheckpointStore(), { now: T0 });
    await expect(engine.signal('payment', { n: 1n })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    await expect(engine.signal('', {})).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    engine.close();
  });
});

describe('USER_INTERACTION timeout', () => {
  function askWorkflow(onTimeout?: string) {
    const builder = new WorkflowBuilder('ask', '1');
    if (onTimeout) builder.end(onTimeout, { output: '"auto-declined"' });
    return builder
      .start()
      .userInteraction('ask', {
        prompt: 'Approve?',
        variable: 'answer',
        timeout: 3_600_000,
        ...(onTimeout ? { onTimeout } : {}),
      })
      .end('end', { output: 'vars.answer' })
      .chain('start', 'ask', 'end')
      .build();
  }

  it('takes an answer before the deadline, and goes to onTimeout after it', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: T0 };
    const engine = new SkeinEngine({ store, now: () => clock.now });
    engine.registerWorkflow(askWorkflow('auto'));
    const answered = await engine.run('ask', { threadId: 'answered' });
    expect(answered.result).toMatchObject({
      status: 'PAUSED',
      pending: { kind: 'user-input', deadline: '2026-03-01T01:00:00.000Z' },
    });
    expect((await engine.resume(answered.thread, 'yes')).result.output).toBe('yes');
    await engine.run('ask', { threadId: 'ignored' });
    clock.now = T0 + 3_600_000;
    const runs = await engine.wakeDue();
    expect(runs.map((r) => r.threadId)).toEqual(['ignored']);
    expect(await runs[0]!.result).toMatchObject({ status: 'COMPLETED', output: 'auto-declined' });
    engine.close();
  });

  it('fails with WAIT_TIMED_OUT without onTimeout; a late answer then finds no pause', async () => {
    const store = new InMemoryCheckpointStore();
    const clock = { now: T0 };
    const engine = new SkeinEngine({ store, now: () => clock.now });
    engine.registerWorkflow(askWorkflow());
    const { thread } = await engine.run('ask', { threadId: 'slow' });
    clock.now = T0 + 3_600_000;
    const [run] = await engine.wakeDue();
    expect((await run!.result).error).toMatchObject({ code: 'WAIT_TIMED_OUT', nodeId: 'ask' });
    await expect(engine.resume(thread, 'too late')).rejects.toMatchObject({
      code: 'RESUME_CONFLICT',
    });
    engine.close();
  });
});
