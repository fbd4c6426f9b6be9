import { type StreamResponse, TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import {
  type CheckpointStore,
  chatWorkflow,
  defineTool,
  InMemoryCheckpointStore,
  SkeinEngine,
} from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { contentText, type LLMRequest } from '@skein/spec';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setClientGone } from './caller.js';
import { createA2AHandler } from './create-a2a-handler.js';
import { agentEngine, asTask, request, type Served, serve } from './test-support/agent.js';

// Two engines on one store stand for two processes of one agent: A runs the turn, a client
// subscribes through B, which hears none of A's events and follows the task in the store.

let opened: Served[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(opened.map((s) => s.close()));
  opened = [];
});

async function open(...args: Parameters<typeof serve>): Promise<Served> {
  const served = await serve(...args);
  opened.push(served);
  return served;
}

/** An event as a word: the kind of response, and the state it says. */
const word = ({ payload }: StreamResponse) =>
  payload?.$case === 'statusUpdate' || payload?.$case === 'task'
    ? `${payload.$case}:${TaskState[payload.value.status!.state]}`
    : payload?.$case;

/** A tool that holds the turn running until the test opens its gate. */
function gate() {
  let started!: () => void;
  let open!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const opened = new Promise<void>((resolve) => (open = resolve));
  const tool = defineTool({
    name: 'lookup',
    description: 'Looks it up',
    parameters: { type: 'object', properties: {} },
    execute: async () => {
      started();
      await opened;
      return 'found';
    },
  });
  return { tool, running, open };
}

/** A chat whose model looks something up first; the same registrations in every "process". */
function gatedEngine(store: CheckpointStore, tool: ReturnType<typeof gate>['tool']) {
  const engine = new SkeinEngine({
    llm: new ScriptedLLMClient((req: LLMRequest) =>
      req.messages.some((m) => m.role === 'tool')
        ? { content: `re: ${contentText(req.messages.find((m) => m.role === 'user')!.content)}` }
        : { toolCalls: [{ id: 'call_1', name: 'lookup', arguments: {} }] },
    ),
    store,
  });
  engine.registerTool(tool);
  engine.registerWorkflow(chatWorkflow({ tools: ['lookup'] }));
  return engine;
}

/** The store as B sees it, counting B's loads: a poll is one. */
function countingLoads(store: CheckpointStore) {
  let loads = 0;
  const counted = new Proxy(store, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (key === 'load') loads++;
        return value.apply(target, args);
      };
    },
  });
  return { store: counted, loads: () => loads };
}

/** Moves the fake clock in small steps, letting I/O run between them, until `done()`. */
async function drive(done: () => boolean) {
  while (!done()) {
    await vi.advanceTimersByTimeAsync(50);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Two processes of one agent on one store, over HTTP: A runs a turn its gated tool holds open
 * (`release` lets it end), B counts its store loads.
 */
async function heldTurn() {
  const store = new InMemoryCheckpointStore();
  const { tool, running, open: release } = gate();
  const a = await open({}, gatedEngine(store, tool));
  const counting = countingLoads(store);
  const b = await open({ followIntervalMs: 100 }, gatedEngine(counting.store, tool));
  const started = asTask(
    await a.client.sendMessage(request('hello', {}, { returnImmediately: true })),
  );
  await running;
  return { a, b, started, release, loads: counting.loads };
}

describe('subscribing to a task another process runs', () => {
  it('sends the task at work, then — read from the store — its answer and its end', async () => {
    const { b, started, release, loads } = await heldTurn();

    // From here the follow's waits are the fake clock's.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const events: StreamResponse[] = [];
    let ended = false;
    const following = (async () => {
      for await (const event of b.client.resubscribeTask({ tenant: '', id: started.id }))
        events.push(event);
      ended = true;
    })();
    await drive(() => events.length > 0);
    // B reads it on and on while it works: nothing new to send.
    await vi.advanceTimersByTimeAsync(2_000);
    expect(events.map(word)).toEqual(['task:TASK_STATE_WORKING']);

    release();
    await drive(() => ended);
    await following;
    expect(events.map(word)).toEqual([
      'task:TASK_STATE_WORKING',
      'artifactUpdate',
      'statusUpdate:TASK_STATE_COMPLETED',
    ]);
    const answer = events[1]?.payload;
    expect(answer?.$case === 'artifactUpdate' && answer.value.artifact?.parts[0]?.content).toEqual({
      $case: 'text',
      value: 're: hello',
    });
    // The stream is over: B reads the store no more.
    const before = loads();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(loads()).toBe(before);
  });

  it('a task waiting for input ends the subscription at once, and nothing is read after', async () => {
    const store = new InMemoryCheckpointStore();
    const a = await open({ workflowId: 'trip' }, agentEngine(store));
    const counting = countingLoads(store);
    const b = await open(
      { workflowId: 'trip', followIntervalMs: 100 },
      agentEngine(counting.store),
    );
    const asked = asTask(await a.client.sendMessage(request('a trip, please')));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const events: StreamResponse[] = [];
    for await (const event of b.client.resubscribeTask({ tenant: '', id: asked.id }))
      events.push(event);
    expect(events.map(word)).toEqual(['task:TASK_STATE_INPUT_REQUIRED']);
    const before = counting.loads();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(counting.loads()).toBe(before);
  });

  it('a client that goes away stops the follow at once: no timer is left', async () => {
    // The handlers themselves, without HTTP: no timer but the follow's is faked.
    const store = new InMemoryCheckpointStore();
    const { tool, running, open: release } = gate();
    const card = { name: 'Agent', description: 'One agent, two processes' };
    const a = createA2AHandler(gatedEngine(store, tool), { card }).requestHandler;
    const b = createA2AHandler(gatedEngine(store, tool), {
      card,
      followIntervalMs: 100,
    }).requestHandler;
    const started = asTask(
      await a.sendMessage(
        request('hello', {}, { returnImmediately: true }),
        new ServerCallContext(),
      ),
    );
    await running;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // The call's context as the HTTP layer makes it: with the signal that its client went away.
    const context = new ServerCallContext();
    const gone = new AbortController();
    setClientGone(context, gone.signal);
    const subscription = b.resubscribe({ tenant: '', id: started.id }, context);
    const first = await subscription.next();
    expect(first.value && word(first.value)).toBe('task:TASK_STATE_WORKING');
    // Waiting for what comes next, while the follow reads the store on its timer.
    const next = subscription.next();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(vi.getTimerCount()).toBe(1);
    gone.abort();
    expect(vi.getTimerCount()).toBe(0);
    // The wait is over at once: the stream ends without the task's end.
    expect(await next).toEqual({ done: true, value: undefined });
    vi.useRealTimers();
    release();
  });

  it('over HTTP: a subscriber that hangs up stops the follow, the task runs on', async () => {
    const { a, b, started, release, loads } = await heldTurn();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    for await (const event of b.client.resubscribeTask({ tenant: '', id: started.id })) {
      expect(word(event)).toBe('task:TASK_STATE_WORKING');
      break;
    }
    // B hears the connection close, and its follow's timer is gone.
    await drive(() => vi.getTimerCount() === 0);
    const before = loads();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(loads()).toBe(before);
    vi.useRealTimers();
    release();
    await expect
      .poll(async () => (await a.client.getTask({ tenant: '', id: started.id })).status?.state)
      .toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('a streamed message whose turn another process takes follows its task to the end', async () => {
    const { a, b, started: first, release } = await heldTurn();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // Through B, into the conversation A is running: the message waits in the thread's inbox.
    const events: StreamResponse[] = [];
    let ended = false;
    const streaming = (async () => {
      for await (const event of b.client.sendMessageStream(
        request('and then?', { contextId: first.contextId }),
      ))
        events.push(event);
      ended = true;
    })();
    await drive(() => events.length > 0);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(ended).toBe(false);
    expect(events.map(word)).toEqual(['task:TASK_STATE_SUBMITTED']);

    // A ends its turn and takes the waiting message in the next one; B reads that in the store.
    release();
    await drive(() => ended);
    await streaming;
    expect(events.map(word)).toEqual([
      'task:TASK_STATE_SUBMITTED',
      'artifactUpdate',
      'statusUpdate:TASK_STATE_COMPLETED',
    ]);
    const task = events[0]?.payload;
    const got = await a.client.getTask({
      tenant: '',
      id: task?.$case === 'task' ? task.value.id : '',
    });
    expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });
});
