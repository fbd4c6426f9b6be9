import type { LLMMessage, LLMRequest } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { InMemoryCheckpointStore } from '../checkpoint/in-memory-checkpoint-store.js';
import { ScriptedLLMClient } from '../testing/scripted-llm-client.js';
import type { ScriptStep } from '../testing/types.js';
import type { Tool } from '../tools/tool.js';
import { chatWorkflow } from '../workflow/chat-workflow.js';
import { SkeinEngine } from './skein-engine.js';

/** A tool that waits for the test: `started` resolves when it runs, `finish()` lets it return. */
function gatedTool() {
  let started!: () => void;
  let finish!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const done = new Promise<void>((resolve) => (finish = resolve));
  const tool: Tool<{ q: string }> = {
    name: 'lookup',
    description: 'Looks something up',
    parameters: {
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
      additionalProperties: false,
    },
    execute: async ({ q }) => {
      started();
      await done;
      return `found ${q}`;
    },
  };
  return { tool, running, finish };
}

/** First answer: a tool call; then the model echoes the last user message. */
const script: ScriptStep[] = [
  { toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] },
  (request: LLMRequest) => ({
    content: `re: ${request.messages.filter((m) => m.role === 'user').at(-1)?.content}`,
  }),
];

function setup(store = new InMemoryCheckpointStore(), owner?: string) {
  const llm = new ScriptedLLMClient(script, { whenExhausted: 'repeat-last' });
  const gated = gatedTool();
  const engine = new SkeinEngine({ llm, store, ...(owner ? { owner } : {}) });
  engine.registerTools([gated.tool]);
  engine.registerWorkflow(chatWorkflow({ systemPrompt: 'Be brief.', tools: ['lookup'] }));
  return { engine, llm, store, ...gated };
}

/**
 * `store` whose `nth` load waits for the test: `before` it reads (the turn then sees the thread as
 * it is once released) or `after` (it sees it as it was: stale). `reached` resolves at the gate.
 */
function gateLoad(store: InMemoryCheckpointStore, nth: number, when: 'before' | 'after') {
  let loads = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let arrive!: () => void;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const wait = async () => {
    if (++loads !== nth) return;
    arrive();
    await gate;
  };
  const gated = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (key !== 'load') return typeof value === 'function' ? value.bind(target) : value;
      return async (...args: Parameters<typeof store.load>) => {
        if (when === 'before') await wait();
        const read = await target.load(...args);
        if (when === 'after') await wait();
        return read;
      };
    },
  });
  return { gated, reached, release };
}

const shape = (messages: readonly LLMMessage[]) =>
  messages.map((m) => (m.toolCalls ? `${m.role}:calls` : `${m.role}:${m.content}`));

describe('send with ifBusy', () => {
  it('steer: the message joins the running turn before its next model call, after the tool result', async () => {
    const { engine, llm, running, finish } = setup();
    const first = engine.send('s1', 'look it up');
    await running;
    const steered = engine.send('s1', 'only the short answer', { ifBusy: 'steer' });
    // Posted before the tool returns (a store write takes a turn of the event loop).
    await new Promise((resolve) => setImmediate(resolve));
    finish();
    const [a, b] = await Promise.all([first, steered]);
    // One turn took both: the steer message was seen by the very next model call.
    expect(b.result).toBe(a.result);
    expect(a.result).toMatchObject({ status: 'COMPLETED', output: 're: only the short answer' });
    expect(llm.requests).toHaveLength(2);
    expect(shape(llm.requests[1]!.messages)).toEqual([
      'system:Be brief.',
      'user:look it up',
      'assistant:calls',
      'tool:found x',
      'user:only the short answer',
    ]);
    const stored = (await engine.getThread('s1'))!;
    expect(stored.conversation.getAllMessages().at(-2)).toMatchObject({ metadata: { inbox: 1 } });
  });

  it('interrupt: the turn ends after its tool round, the next turn takes the message', async () => {
    const { engine, llm, store, running, finish } = setup();
    const first = engine.send('i1', 'look it up');
    await running;
    const interrupting = engine.send('i1', 'never mind, say hi', { ifBusy: 'interrupt' });
    await new Promise((resolve) => setImmediate(resolve));
    finish();
    const a = await first;
    expect(a.result).toMatchObject({ status: 'CANCELLED', error: { code: 'THREAD_INTERRUPTED' } });
    const b = await interrupting;
    expect(b.result).toMatchObject({ status: 'COMPLETED', output: 're: never mind, say hi' });
    // No half tool call: the call and its result stay, then the new message.
    expect(llm.requests).toHaveLength(2);
    expect(shape(llm.requests[1]!.messages)).toEqual([
      'system:Be brief.',
      'user:look it up',
      'assistant:calls',
      'tool:found x',
      'user:never mind, say hi',
    ]);
    expect(await store.pendingMessages('i1')).toEqual([]);
  });

  it('queue: messages sent during a turn are taken together, in order, by the turn after', async () => {
    const { engine, llm, running, finish } = setup();
    const first = engine.send('q1', 'look it up');
    await running;
    const later = ['two', 'three', 'four'].map((text) => engine.send('q1', text));
    await new Promise((resolve) => setImmediate(resolve));
    finish();
    expect((await first).result.output).toBe('re: look it up');
    const results = await Promise.all(later);
    expect(new Set(results.map((r) => r.result)).size).toBe(1);
    expect(shape(llm.requests.at(-1)!.messages).slice(-3)).toEqual([
      'user:two',
      'user:three',
      'user:four',
    ]);
  });

  it('onEvent of a message that waits hears the turn that takes it, not the one it waited for', async () => {
    const { engine, running, finish } = setup();
    const firstHeard: string[] = [];
    const laterHeard: string[] = [];
    const tokens = (into: string[]) => (event: { type: string; delta?: string }) => {
      if (event.type === 'llm:token') into.push(event.delta ?? '');
    };
    const first = engine.send('e1', 'look it up', { onEvent: tokens(firstHeard) });
    await running;
    const later = engine.send('e1', 'and this', { onEvent: tokens(laterHeard) });
    await new Promise((resolve) => setImmediate(resolve));
    finish();
    await Promise.all([first, later]);
    expect(firstHeard.join('')).toBe('re: look it up');
    expect(laterHeard.join('')).toBe('re: and this');
  });

  it('reject: a running thread refuses the message with THREAD_BUSY and posts nothing', async () => {
    const { engine, store, running, finish } = setup();
    const first = engine.send('r1', 'look it up');
    await running;
    await expect(engine.send('r1', 'hello?', { ifBusy: 'reject' })).rejects.toMatchObject({
      code: 'THREAD_BUSY',
      status: 'RUNNING',
    });
    expect(await store.pendingMessages('r1')).toEqual([]);
    finish();
    expect((await first).result.status).toBe('COMPLETED');
  });

  it('another engine on the store posts (RUNNING, its seq); the engine running the thread takes it', async () => {
    const store = new InMemoryCheckpointStore();
    const runner = setup(store, 'runner');
    const other = setup(store, 'other');
    const first = runner.engine.send('x1', 'look it up');
    await runner.running;
    const posted = await other.engine.send('x1', 'from elsewhere', { messageId: 'm1' });
    expect(posted.result).toMatchObject({ status: 'RUNNING', posted: { seq: 1, messageId: 'm1' } });
    await expect(other.engine.send('x1', 'no', { ifBusy: 'reject' })).rejects.toMatchObject({
      code: 'THREAD_BUSY',
    });
    runner.finish();
    expect((await first).result.output).toBe('re: look it up');
    // The runner took it in the turn after: send again here to wait for that turn's end.
    const last = await runner.engine.send('x1', 'and last');
    const users = last.thread.conversation
      .getAllMessages()
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(users).toEqual(['look it up', 'from elsewhere', 'and last']);
    expect(other.llm.requests).toHaveLength(0);
  });

  it('a retried send stores its message once: one that made the thread, and one posted', async () => {
    const { engine, store, finish } = setup();
    finish();
    const made = await engine.send('m1', 'look it up', { messageId: 'first' });
    expect(made.result.status).toBe('COMPLETED');
    const again = await engine.send('m1', 'look it up', { messageId: 'first' });
    expect(again.result).toMatchObject({ status: 'COMPLETED', steps: 0 });
    await engine.send('m1', 'second', { messageId: 'second' });
    await engine.send('m1', 'second', { messageId: 'second' });
    const users = (await engine.getThread('m1'))!.conversation
      .getAllMessages()
      .filter((m) => m.role === 'user');
    expect(users.map((m) => [m.content, m.metadata?.inboxId])).toEqual([
      ['look it up', 'first'],
      ['second', 'second'],
    ]);
    expect(await store.pendingMessages('m1')).toEqual([]);
  });

  it('a turn reads the inbox before the thread: messages another engine took in between are not taken again', async () => {
    const store = new InMemoryCheckpointStore();
    const b = setup(store, 'b');
    b.finish();
    await b.engine.send('r2', 'hello');
    await store.postMessage('r2', {
      id: 'x',
      message: { role: 'user', content: 'x' },
      mode: 'queue',
      postedAt: new Date().toISOString(),
    });
    // Engine a's second load of the thread (after it read the inbox) waits for the test.
    const { gated, reached: reachedGate, release: releaseLoad } = gateLoad(store, 2, 'before');
    const a = setup(gated, 'a');
    a.finish();
    const fromA = a.engine.send('r2', 'a', { messageId: 'a' });
    await reachedGate;
    // Meanwhile engine b takes everything waiting (x, a) with its own message.
    await b.engine.send('r2', 'b', { messageId: 'b' });
    releaseLoad();
    expect((await fromA).result).toMatchObject({ posted: { messageId: 'a' } });
    const users = (await b.engine.getThread('r2'))!.conversation
      .getAllMessages()
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(users).toEqual(['hello', 'x', 'a', 'b']);
  });

  it('a first message whose thread another engine made between its read and its first save is posted, not lost', async () => {
    const store = new InMemoryCheckpointStore();
    // Engine a reads "no such thread", then waits for the test before it goes on.
    const { gated, reached: reachedGate, release: releaseLoad } = gateLoad(store, 1, 'after');
    const a = setup(gated, 'a');
    const b = setup(store, 'b');
    a.finish();
    b.finish();
    const fromA = a.engine.send('new1', 'from a', { messageId: 'a' });
    await reachedGate;
    // Engine b makes the thread and ends its turn (its lease given back) before a goes on.
    await b.engine.send('new1', 'from b', { messageId: 'b' });
    releaseLoad();
    // a's first save is refused (the thread is there now): its message goes to the inbox, and
    // the turn that takes it (here, a's own) is what the send resolves with.
    expect((await fromA).result).toMatchObject({ status: 'COMPLETED', output: 're: from a' });
    const last = await b.engine.send('new1', 'last');
    const users = last.thread.conversation
      .getAllMessages()
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(users).toEqual(['from b', 'from a', 'last']);
  });

  it('a turn whose thread another engine moved on after it was read leaves its send waiting, not failed', async () => {
    const store = new InMemoryCheckpointStore();
    const b = setup(store, 'b');
    b.finish();
    await b.engine.send('r3', 'hello');
    // Engine a's second load (the turn that takes its posted message) reads the thread, then
    // waits for the test: a's view of the thread is stale once it goes on.
    const { gated, reached: reachedGate, release: releaseLoad } = gateLoad(store, 2, 'after');
    const a = setup(gated, 'a');
    a.finish();
    const fromA = a.engine.send('r3', 'a', { messageId: 'a' });
    await reachedGate;
    // Meanwhile engine b takes a's message with its own, and lets go of the thread.
    await b.engine.send('r3', 'b', { messageId: 'b' });
    releaseLoad();
    // a's turn is refused by the store (CHECKPOINT_CONFLICT): the message was taken elsewhere.
    expect((await fromA).result).toMatchObject({ posted: { messageId: 'a' } });
    const users = (await b.engine.getThread('r3'))!.conversation
      .getAllMessages()
      .filter((m) => m.role === 'user')
      .map((m) => m.content);
    expect(users).toEqual(['hello', 'a', 'b']);
  });

  it('refuses clear for a message that would wait, and a bad messageId', async () => {
    const { engine, running, finish } = setup();
    const first = engine.send('c1', 'look it up');
    await running;
    await expect(engine.send('c1', 'new topic', { clear: true })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      argument: 'options.clear',
    });
    await expect(engine.send('c1', 'x', { messageId: '' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    finish();
    await first;
  });
});
