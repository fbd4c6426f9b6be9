import type { LLMRequest } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import type { ThreadEvent } from '../events/thread-event.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import { chatWorkflow } from '../workflow/chat-workflow.js';
import { WorkflowBuilder } from '../workflow/workflow-builder.js';
import { SkeinEngine } from './skein-engine.js';

const echo = (request: LLMRequest) => ({
  content: `re: ${request.messages.filter((m) => m.role === 'user').at(-1)?.content}`,
});

/** A chat engine whose model waits at `gate` on its first call when one is given. */
function chatEngine(gate?: Promise<void>) {
  const llm = new ScriptedLLMClient(
    [
      async (request, i) => {
        if (i === 0 && gate) await gate;
        return echo(request);
      },
    ],
    { whenExhausted: 'repeat-last' },
  );
  const store = new InMemoryCheckpointStore();
  const engine = new SkeinEngine({ llm, store });
  engine.registerWorkflow(chatWorkflow({ systemPrompt: 'Be brief.' }));
  engine.registerWorkflow(
    new WorkflowBuilder('pay', '1')
      .start()
      .waitForEvent('paid', { event: 'payment' })
      .end()
      .chain('start', 'paid', 'end')
      .build(),
  );
  return { engine, store, llm };
}

const codeOf = (call: Promise<unknown>) =>
  call.then(
    () => 'resolved',
    (error: { code?: string }) => error.code,
  );

describe("a principal's view of the engine", () => {
  it('sends to a new thread built for the principal, and treats the thread of another as unknown', async () => {
    const { engine, store } = chatEngine();
    const ada = engine.forPrincipal('ada');
    const bob = engine.forPrincipal('bob');
    const first = await ada.send('chat-1', 'hello');
    expect(first.result.output).toBe('re: hello');
    expect(first.thread.state.principal).toBe('ada');
    const before = await store.list('chat-1');

    const heard: ThreadEvent[] = [];
    expect(await codeOf(bob.send('chat-1', 'mine?', { onEvent: (e) => heard.push(e) }))).toBe(
      'CHECKPOINT_NOT_FOUND',
    );
    expect(heard).toEqual([]);
    expect(await store.list('chat-1')).toEqual(before);
    expect(await bob.getThread('chat-1')).toBeUndefined();
    expect((await ada.getThread('chat-1'))?.threadId).toBe('chat-1');
    expect((await ada.send('chat-1', 'again')).result.output).toBe('re: again');
    // The engine itself is the app's: it reaches every thread.
    expect((await engine.getThread('chat-1'))?.state.principal).toBe('ada');
  });

  it("keeps a queued message of another principal out of the owner's turn, and tells it nothing", async () => {
    let release!: () => void;
    const { engine, llm } = chatEngine(new Promise<void>((resolve) => (release = resolve)));
    const ada = engine.forPrincipal('ada');
    const bob = engine.forPrincipal('bob');
    const first = ada.send('q1', 'one');
    const heardByBob: ThreadEvent[] = [];
    // Both wait for the running turn; Bob's message must not ride along with Ada's.
    const bobs = codeOf(bob.send('q1', 'intruder', { onEvent: (e) => heardByBob.push(e) }));
    const adas = ada.send('q1', 'two');
    release();
    expect((await first).result.output).toBe('re: one');
    expect(await bobs).toBe('CHECKPOINT_NOT_FOUND');
    expect((await adas).result.output).toBe('re: two');
    expect(heardByBob).toEqual([]);
    expect(llm.requests.flatMap((r) => r.messages.map((m) => m.content))).not.toContain('intruder');
  });

  it('refuses every entry taking a thread of another principal, or of none, as an unknown one', async () => {
    const { engine, store } = chatEngine();
    const ada = engine.forPrincipal('ada');
    const bob = engine.forPrincipal('bob');
    const { thread: adas } = await ada.run('pay', { threadId: 'adas' });
    const { thread: legacy } = await engine.run('pay', { threadId: 'legacy' });
    const before = { adas: await store.list('adas'), legacy: await store.list('legacy') };
    for (const [threadId, thread] of [
      ['adas', adas],
      ['legacy', legacy],
    ] as const) {
      expect(await bob.getThread(threadId)).toBeUndefined();
      expect(await codeOf(bob.loadThread(threadId))).toBe('CHECKPOINT_NOT_FOUND');
      expect(await codeOf(bob.resume(threadId, 'x'))).toBe('CHECKPOINT_NOT_FOUND');
      expect(await codeOf(bob.resume(thread, 'x'))).toBe('CHECKPOINT_NOT_FOUND');
      expect(await codeOf(bob.claimResume(thread, 'x'))).toBe('CHECKPOINT_NOT_FOUND');
      expect(await codeOf(bob.run(thread))).toBe('CHECKPOINT_NOT_FOUND');
      expect(await codeOf(bob.fork(threadId))).toBe('CHECKPOINT_NOT_FOUND');
      expect(await codeOf(bob.history(threadId, { variables: false }))).toBe(
        'CHECKPOINT_NOT_FOUND',
      );
      expect(await codeOf(bob.subscribe(threadId, () => {}))).toBe('CHECKPOINT_NOT_FOUND');
      expect(await codeOf(bob.createWebhook(threadId))).toBe('CHECKPOINT_NOT_FOUND');
    }
    // A thread of nobody's is nobody's: Ada, as Bob, does not find it.
    expect(await ada.getThread('legacy')).toBeUndefined();
    expect(await store.list('adas')).toEqual(before.adas);
    expect(await store.list('legacy')).toEqual(before.legacy);

    // Ada does: a webhook, the history, a fork of her own.
    expect(typeof (await ada.createWebhook('adas'))).toBe('string');
    expect((await ada.history('adas')).length).toBeGreaterThan(0);
    const fork = await ada.fork('adas', { threadId: 'adas-fork' });
    expect(fork.thread.state).toMatchObject({ principal: 'ada', forkedFrom: { threadId: 'adas' } });
    const heard: string[] = [];
    const stop = await ada.subscribe('adas', (event) => heard.push(event.type));
    const [delivered] = (await engine.signal('payment', { id: 1 })).runs;
    expect((await delivered!.result).status).toBe('COMPLETED');
    stop();
    expect(heard).toContain('thread:completed');
  });

  it('refuses a principal that is not a non-empty printable string, building nothing', async () => {
    const { engine, store } = chatEngine();
    expect(() => engine.forPrincipal('')).toThrow(/a principal must not be empty/);
    expect(() => engine.createThread('chat', { principal: 'a\u0000' })).toThrow(
      /control characters/,
    );
    expect(() => engine.forPrincipal(42 as never)).toThrow(/must be a string, not number/);
    expect(await store.listThreads()).toEqual([]);
  });

  it("gives child threads their parent's principal", async () => {
    const { engine, store } = chatEngine();
    engine.registerWorkflow(
      new WorkflowBuilder('fan', '1')
        .start()
        .parallel('fan', { join: 'join', branches: [{ name: 'ask', start: 'ask' }] })
        .userInteraction('ask', { prompt: 'Which?', variable: 'city' })
        .join('join', { outputVariable: 'results' })
        .end('end', { output: 'vars.results' })
        .edge('start', 'fan')
        .edge('ask', 'join')
        .edge('join', 'end')
        .build(),
    );
    await engine.forPrincipal('ada').run('fan', { threadId: 'f1' });
    const child = (await store.listThreads()).find((t) => t.threadId.startsWith('f1/'));
    expect((await store.load(child!.threadId))!.state).toMatchObject({
      principal: 'ada',
      parent: { rootThreadId: 'f1' },
    });
  });
});
