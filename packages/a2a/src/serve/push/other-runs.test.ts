import { TaskState } from '@a2a-js/sdk';
import { InMemoryPushNotificationStore } from '@a2a-js/sdk/server';
import { InMemoryCheckpointStore } from '@skein/core';
import { afterEach, describe, expect, it } from 'vitest';
import { agentEngine, asTask, request, type Served, serve } from '../test-support/agent.js';
import {
  deliveredStates,
  type PushReceiver,
  pushReceiver,
  taskOf,
} from '../test-support/push-receiver.js';

// Runs the handler did not start: a wait the engine wakes, the app's own send, another process.
// Each is pushed once, by the process that runs it, to the configs of the task's caller.

const { TASK_STATE_WORKING: WORKING, TASK_STATE_INPUT_REQUIRED: INPUT_REQUIRED } = TaskState;
const { TASK_STATE_COMPLETED: COMPLETED } = TaskState;

let opened: Served[] = [];
let receiver: PushReceiver | undefined;
afterEach(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await receiver?.close();
  opened = [];
  receiver = undefined;
});

async function open(...args: Parameters<typeof serve>): Promise<Served> {
  const served = await serve(...args);
  opened.push(served);
  return served;
}

const withConfig = (url: string) => ({ taskPushNotificationConfig: { url, token: 'tok' } });

describe('push notifications of runs the handler did not start', () => {
  it('a wait woken by a signal, and the app’s own send, are pushed once each, in order', async () => {
    receiver = await pushReceiver();
    const { client, engine } = await open({
      workflowId: 'await',
      pushNotifications: { allowUrl: () => true },
    });
    // The turn waits for the event `go`: the task works on (a wait is no change).
    const task = asTask(await client.sendMessage(request('hello', {}, withConfig(receiver.url))));
    expect(task.status?.state).toBe(WORKING);
    await receiver.until(1);

    // The engine wakes it (a signal from the app, a webhook): that run ends the task.
    const signalled = await engine.signal('go');
    await Promise.all(signalled.runs.map((run) => run.result));
    await receiver.until(2);
    expect(deliveredStates(receiver)).toEqual([WORKING, COMPLETED]);

    // The app sends the thread a message itself: the task's next turn, which waits again.
    await engine.send(task.contextId, 'and then?');
    await receiver.until(3);
    const again = await engine.signal('go');
    await Promise.all(again.runs.map((run) => run.result));
    await receiver.until(4);
    expect(deliveredStates(receiver)).toEqual([WORKING, COMPLETED, WORKING, COMPLETED]);
    for (const push of receiver.received) {
      expect(taskOf(push).id).toBe(task.id);
      expect(push.headers['x-a2a-notification-token']).toBe('tok');
    }
    expect(taskOf(receiver.received[3]!).artifacts[0]?.parts[0]?.content).toEqual({
      $case: 'text',
      value: 're: and then?',
    });
  });

  it('the app answering a task’s question itself: working, then the end', async () => {
    receiver = await pushReceiver();
    const { client, engine } = await open({
      workflowId: 'trip',
      pushNotifications: { allowUrl: () => true },
    });
    const asked = asTask(
      await client.sendMessage(request('a trip, please', {}, withConfig(receiver.url))),
    );
    expect(asked.status?.state).toBe(INPUT_REQUIRED);
    await receiver.until(2);
    const { result } = await engine.send(asked.contextId, 'Lisbon');
    expect(result.status).toBe('COMPLETED');
    await receiver.until(4);
    expect(deliveredStates(receiver)).toEqual([WORKING, INPUT_REQUIRED, WORKING, COMPLETED]);
    expect(receiver.received.every((p) => taskOf(p).id === asked.id)).toBe(true);
  });

  it('another process that runs the task pushes it, with the configs of a store both share', async () => {
    receiver = await pushReceiver();
    const store = new InMemoryCheckpointStore();
    // One durable config store for both processes (here in memory, shared).
    const configs = new InMemoryPushNotificationStore();
    const options = {
      workflowId: 'trip',
      pushNotifications: { store: configs, allowUrl: () => true },
      authorize: (r: Request) => r.headers.get('authorization')?.replace(/^Bearer /, ''),
    };
    const a = await open(options, agentEngine(store));
    const b = await open(options, agentEngine(store));
    const asAlice = { serviceParameters: { authorization: 'Bearer alice' } };
    const asked = asTask(
      await a.client.sendMessage(request('a trip, please', {}, withConfig(receiver.url)), asAlice),
    );
    await receiver.until(2);

    // Process B's app answers it: A hears nothing of that run, B pushes it to alice's config.
    const { result } = await b.engine.forPrincipal('alice').send(asked.contextId, 'Porto');
    expect(result.status).toBe('COMPLETED');
    await receiver.until(4);
    expect(deliveredStates(receiver)).toEqual([WORKING, INPUT_REQUIRED, WORKING, COMPLETED]);
    expect(receiver.received.every((p) => taskOf(p).id === asked.id)).toBe(true);
  });
});
