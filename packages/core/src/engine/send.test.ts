import type { LLMRequest } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { add } from '../test-support/executor-fixtures.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { ScriptStep } from '../testing/types.js';
import type { ThreadContext } from '../thread/thread-context.js';
import { chatWorkflow } from '../workflow/chat-workflow.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import { SkeinEngine } from './skein-engine.js';

/** The model echoes the last user message, so each turn's reply says what it answered. */
const echo: ScriptStep = (request: LLMRequest) => ({
  content: `re: ${request.messages.filter((m) => m.role === 'user').at(-1)?.content}`,
});

function chatEngine(script: ScriptStep | readonly ScriptStep[] = echo) {
  const llm = new ScriptedLLMClient(Array.isArray(script) ? script : [script], {
    whenExhausted: 'repeat-last',
  });
  const store = new InMemoryCheckpointStore();
  const engine = new SkeinEngine({ llm, store });
  engine.registerTools([add]);
  engine.registerWorkflow(chatWorkflow({ systemPrompt: 'Be brief.' }));
  return { engine, llm, store };
}

const contents = (request: LLMRequest) => request.messages.map((m) => `${m.role}:${m.content}`);

function userTexts(thread: ThreadContext): unknown[] {
  return thread.conversation
    .getAllMessages()
    .filter((m) => m.role === 'user')
    .map((m) => m.content);
}

describe('engine.send', () => {
  it('starts a chat thread, then continues it turn after turn with its conversation', async () => {
    const { engine, llm, store } = chatEngine();
    const first = await engine.send('t1', 'hello');
    expect(first.result).toMatchObject({ status: 'COMPLETED', output: 're: hello' });
    expect(first.thread.threadId).toBe('t1');
    const second = await engine.send('t1', { content: 'and again' });
    expect(second.result).toMatchObject({ status: 'COMPLETED', output: 're: and again' });
    expect(contents(llm.requests[1]!)).toEqual([
      'system:Be brief.',
      'user:hello',
      'assistant:re: hello',
      'user:and again',
    ]);
    // One chain of checkpoints: the second turn continues the first.
    const checkpoints = await store.list('t1');
    expect(checkpoints.map((c) => c.sequence)).toEqual(checkpoints.map((_, i) => i + 1));
    expect(second.result.totalSteps).toBeGreaterThan(first.result.totalSteps);
  });

  it('answers a thread paused for input with the message', async () => {
    const { engine, llm } = chatEngine();
    engine.registerWorkflow(
      new WorkflowBuilder('ask', '1')
        .start()
        .userInteraction('q', { prompt: 'Your name?' })
        .llm('greet')
        .end()
        .chain('start', 'q', 'greet', 'end')
        .build(),
    );
    const { result } = await engine.run('ask', { threadId: 'a1' });
    expect(result.status).toBe('PAUSED');
    const answered = await engine.send('a1', 'Ada');
    expect(answered.result).toMatchObject({ status: 'COMPLETED', output: 're: Ada' });
    expect(llm.requests).toHaveLength(1);
  });

  it('queues a message sent while the thread runs, for its next turn', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slowFirst: ScriptStep = async (request, i) => {
      if (i === 0) await gate;
      return echo(request, i) as never;
    };
    const { engine, llm } = chatEngine(slowFirst);
    const first = engine.send('q1', 'one');
    const second = engine.send('q1', 'two');
    const third = engine.send('q1', 'three');
    release();
    const [a, b, c] = await Promise.all([first, second, third]);
    expect(a.result.output).toBe('re: one');
    // The two queued messages are taken together by the next turn.
    expect(b.result).toBe(c.result);
    expect(b.result.output).toBe('re: three');
    expect(llm.requests).toHaveLength(2);
    expect(contents(llm.requests[1]!).slice(-2)).toEqual(['user:two', 'user:three']);
  });

  it('posts a message to a thread waiting for tool approvals (reject refuses it), taken by the turn after', async () => {
    const { engine, store } = chatEngine([
      { toolCalls: [{ name: 'guarded', arguments: { a: 1, b: 2 } }] },
      echo,
    ]);
    engine.registerTools([{ ...add, name: 'guarded', needsApproval: () => true }]);
    engine.registerWorkflow(chatWorkflow({ id: 'guarded', tools: ['guarded'] }));
    const paused = await engine.send('g1', 'sum', { workflowId: 'guarded' });
    expect(paused.result.status).toBe('PAUSED');
    const before = await store.list('g1');
    await expect(engine.send('g1', 'hello?', { ifBusy: 'reject' })).rejects.toMatchObject({
      code: 'THREAD_BUSY',
      status: 'PAUSED',
      message: expect.stringMatching(/waits for tool approvals/),
    });
    expect(await store.pendingMessages('g1')).toEqual([]);
    const posted = await engine.send('g1', 'hello?', { messageId: 'm-1' });
    expect(posted.result).toMatchObject({ status: 'PAUSED', posted: { seq: 1, messageId: 'm-1' } });
    // A retried send posts nothing more.
    expect((await engine.send('g1', 'hello?', { messageId: 'm-1' })).result).toMatchObject({
      posted: { seq: 1 },
    });
    expect(await store.list('g1')).toEqual(before);
    await engine.resume('g1', true);
    const after = await engine.send('g1', 'and then?');
    const users = after.thread.conversation
      .getAllMessages()
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(users).toEqual(['sum', 'hello?', 'and then?']);
    expect(await store.pendingMessages('g1')).toEqual([]);
    const settled = await store.list('g1');
    await expect(engine.send('g1', 'x', { ifBusy: 'later' as never })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/options.ifBusy must be/),
    });
    await expect(
      engine.send('g1', { role: 'system', content: 'x' } as never),
    ).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringMatching(/message.role must be "user"/),
    });
    await expect(engine.send('', 'x')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await store.list('g1')).toEqual(settled);
  });

  it('needs a store and a workflow', async () => {
    const engine = new SkeinEngine({ llm: new ScriptedLLMClient([echo]) });
    await expect(engine.send('x', 'hi')).rejects.toMatchObject({ code: 'NO_STORE' });
    const { engine: withStore } = chatEngine();
    await expect(withStore.send('y', 'hi', { workflowId: 'nope' })).rejects.toMatchObject({
      code: 'WORKFLOW_NOT_FOUND',
    });
    expect(await withStore.getThread('y')).toBeUndefined();
  });

  it('runs again after a failed turn, from its START with the conversation kept', async () => {
    const { engine, llm } = chatEngine([{ fail: 'model down' }, echo]);
    engine.registerWorkflow(
      chatWorkflow({ systemPrompt: 'Be brief.', retry: { maxAttempts: 1 } }),
      { replace: true },
    );
    const failed = await engine.send('f1', 'first');
    expect(failed.result.status).toBe('FAILED');
    const retried = await engine.send('f1', 'second');
    expect(retried.result).toMatchObject({ status: 'COMPLETED', output: 're: second' });
    expect(contents(llm.requests.at(-1)!)).toEqual([
      'system:Be brief.',
      'user:first',
      'user:second',
    ]);
  });

  it('clears the view for a new topic, keeping the system prompt and the tools described', async () => {
    const { engine, llm, store } = chatEngine();
    engine.registerWorkflow(
      chatWorkflow({ id: 'tools', systemPrompt: 'Be brief.', initialTools: ['add'] }),
    );
    await engine.send('n1', 'first topic', { workflowId: 'tools' });
    const { result, thread } = await engine.send('n1', 'second topic', { clear: true });
    expect(result.output).toBe('re: second topic');
    const sent = contents(llm.requests.at(-1)!);
    expect(sent).toHaveLength(3);
    expect(sent[0]).toBe('system:Be brief.');
    expect(sent[1]).toMatch(/^system:.*add/s);
    expect(sent[2]).toBe('user:second topic');
    // Nothing is lost: the first topic is still stored, in an earlier batch.
    expect(thread.conversation.getAllMessages().map((m) => m.content)).toContain('first topic');
    expect((await engine.getThread('n1'))!.conversation.getMessages()).toHaveLength(4);
    expect(await store.list('n1')).not.toHaveLength(0);
  });

  it('posts to a thread that waits on time or an event, keeping the wait and its webhook; interrupt ends the wait', async () => {
    let now = Date.parse('2026-11-29T09:00:00Z');
    const llm = new ScriptedLLMClient([echo], { whenExhausted: 'repeat-last' });
    const store = new InMemoryCheckpointStore();
    const engine = new SkeinEngine({ llm, store, now: () => now });
    engine.registerWorkflow(
      new WorkflowBuilder('nap', '1')
        .start()
        .sleep('nap', { until: '"2026-11-29T10:00:00Z"' })
        .end()
        .chain('start', 'nap', 'end')
        .build(),
    );
    engine.registerWorkflow(
      new WorkflowBuilder('pay', '1')
        .start()
        .waitForEvent('paid', { event: 'payment' })
        .end()
        .chain('start', 'paid', 'end')
        .build(),
    );
    await engine.run('nap', { threadId: 'sleeper' });
    await engine.run('pay', { threadId: 'payer' });
    const token = await engine.createWebhook('payer');
    const before = {
      sleeper: await store.list('sleeper'),
      payer: await store.list('payer'),
    };
    now = Date.parse('2026-11-29T09:30:00Z');
    for (const [threadId, waits] of [
      ['sleeper', /sleeps until 2026-11-29T10:00:00/],
      ['payer', /waits for event "payment"/],
    ] as const) {
      await expect(engine.send(threadId, 'hello?', { ifBusy: 'reject' })).rejects.toMatchObject({
        code: 'THREAD_BUSY',
        status: 'WAITING',
        message: expect.stringMatching(waits),
      });
      // Queued and steered messages wait for the turn after the wake; the wait stays.
      for (const ifBusy of ['queue', 'steer'] as const)
        expect((await engine.send(threadId, `${ifBusy}?`, { ifBusy })).result).toMatchObject({
          status: 'WAITING',
          posted: { seq: ifBusy === 'queue' ? 1 : 2 },
        });
    }
    expect(await store.list('sleeper')).toEqual(before.sleeper);
    expect(await store.list('payer')).toEqual(before.payer);
    expect((await store.load('sleeper'))!.state.pending).toMatchObject({
      kind: 'sleep',
      wakeAt: '2026-11-29T10:00:00.000Z',
    });
    expect(await engine.deliverWebhook(token, { amount: 42 })).toMatchObject({
      status: 'delivered',
    });
    // The turn after the event takes both, in order (and waits for a payment again).
    await engine.send('payer', 'thanks');
    // Each message once, in order: in the conversation, or still waiting for the next payment.
    const payer = (await engine.getThread('payer'))!;
    const waiting = (await store.pendingMessages('payer')).map((p) => p.message.content);
    expect([...userTexts(payer), ...waiting]).toEqual(['queue?', 'steer?', 'thanks']);
    expect(userTexts(payer).slice(0, 2)).toEqual(['queue?', 'steer?']);
    // An interrupt ends the sleep: the thread runs from its START with the three messages.
    const woken = await engine.send('sleeper', 'wake up', { ifBusy: 'interrupt' });
    expect(userTexts(woken.thread)).toEqual(['queue?', 'steer?', 'wake up']);
    expect(await store.pendingMessages('sleeper')).toEqual([]);
    engine.close();
  });

  it('refuses a thread id a store would change (a lone surrogate), storing nothing', async () => {
    const { engine, store } = chatEngine();
    for (const id of ['id-\uD800', 'chat-\udc00x', 'a\u0000b'])
      await expect(engine.send(id, 'x')).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        argument: 'threadId',
      });
    expect(await store.listThreads()).toEqual([]);
  });
});
