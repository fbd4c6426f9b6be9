import { type TaskPushNotificationConfig, TaskState } from '@a2a-js/sdk';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { asTask, request, type Served, serve } from '../test-support/agent.js';
import {
  deliveredStates,
  type PushReceiver,
  pushReceiver,
  taskOf,
} from '../test-support/push-receiver.js';
import { A2APushError } from './push-error.js';
import type { A2APushNotificationOptions } from './push-options.js';

const { TASK_STATE_WORKING: WORKING, TASK_STATE_INPUT_REQUIRED: INPUT_REQUIRED } = TaskState;
const { TASK_STATE_COMPLETED: COMPLETED, TASK_STATE_CANCELED: CANCELED } = TaskState;

let served: Served | undefined;
let receiver: PushReceiver | undefined;
afterEach(async () => {
  vi.useRealTimers();
  await served?.close();
  await receiver?.close();
  served = receiver = undefined;
});

/** Tests push to 127.0.0.1, which the default policy refuses. */
const onLoopback = (url: URL) => url.hostname === '127.0.0.1';

async function setUp(
  push: A2APushNotificationOptions = {},
  statuses: readonly number[] = [],
  workflowId = 'chat',
) {
  receiver = await pushReceiver(statuses);
  served = await serve({ workflowId, pushNotifications: { allowUrl: onLoopback, ...push } });
  return { receiver, served, client: served.client };
}

const config = (taskId: string, fields: Partial<TaskPushNotificationConfig>) =>
  ({
    tenant: '',
    id: '',
    taskId,
    url: '',
    token: '',
    authentication: undefined,
    ...fields,
  }) as TaskPushNotificationConfig;

const list = { tenant: '', pageSize: 0, pageToken: '' };

/** A JSON-RPC error as the official client throws it: its code, and its message. */
async function rpcError(call: Promise<unknown>): Promise<{ code?: number; message: string }> {
  const error = (await call.then(
    () => expect.unreachable('the call was refused'),
    (e: unknown) => e,
  )) as { envelopeCode?: number; message: string };
  return { code: error.envelopeCode, message: error.message };
}

describe('push notifications, through the official client and a webhook on 127.0.0.1', () => {
  it('the card says so only when the server is given the option', async () => {
    const { client } = await setUp();
    expect((await client.getAgentCard()).capabilities?.pushNotifications).toBe(true);
    const without = await serve();
    try {
      expect((await without.client.getAgentCard()).capabilities?.pushNotifications).toBe(false);
    } finally {
      await without.close();
    }
  });

  it('creates, lists, reads, replaces and deletes a task’s configs (ids given when absent)', async () => {
    const { client, receiver } = await setUp();
    const task = asTask(await client.sendMessage(request('hello')));
    const made = await client.createTaskPushNotificationConfig(
      config(task.id, { url: receiver.url, token: 'tok-1' }),
    );
    expect(made).toMatchObject({ taskId: task.id, url: receiver.url, token: 'tok-1' });
    expect(made.id).not.toBe('');
    const auth = { scheme: 'Bearer', credentials: 'secret' };
    await client.createTaskPushNotificationConfig(
      config(task.id, { id: 'mine', url: `${receiver.url}/a`, authentication: auth }),
    );
    const listed = await client.listTaskPushNotificationConfig({ ...list, taskId: task.id });
    expect(listed.configs.map((c) => c.id)).toEqual([made.id, 'mine']);
    expect(
      await client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'mine' }),
    ).toMatchObject({ id: 'mine', url: `${receiver.url}/a`, authentication: auth });

    // The same id replaces the config; deleting it leaves the other.
    await client.createTaskPushNotificationConfig(
      config(task.id, { id: 'mine', url: `${receiver.url}/b` }),
    );
    const replaced = await client.listTaskPushNotificationConfig({ ...list, taskId: task.id });
    expect(replaced.configs.map((c) => [c.id, c.url])).toEqual([
      [made.id, receiver.url],
      ['mine', `${receiver.url}/b`],
    ]);
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'mine' });
    const left = await client.listTaskPushNotificationConfig({ ...list, taskId: task.id });
    expect(left.configs.map((c) => c.id)).toEqual([made.id]);
    const gone = await rpcError(
      client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'mine' }),
    );
    expect(gone.code).toBe(-32001);
    // A task that is over changes no more: nothing was pushed.
    expect(receiver.received).toEqual([]);
  });

  it('a config sent with the message hears the task at work, then its end, with its token', async () => {
    const { client, receiver } = await setUp();
    const task = asTask(
      await client.sendMessage(
        request('hello', {}, { taskPushNotificationConfig: { url: receiver.url, token: 'tok-1' } }),
      ),
    );
    const { configs } = await client.listTaskPushNotificationConfig({ ...list, taskId: task.id });
    expect(configs).toMatchObject([{ taskId: task.id, url: receiver.url, token: 'tok-1' }]);
    await receiver.until(2);
    expect(deliveredStates(receiver)).toEqual([WORKING, COMPLETED]);
    for (const push of receiver.received) {
      expect(push.headers['content-type']).toBe('application/a2a+json');
      expect(push.headers['x-a2a-notification-token']).toBe('tok-1');
      expect(taskOf(push)).toMatchObject({ id: task.id, contextId: task.contextId });
    }
    const [working, completed] = receiver.received.map(taskOf);
    expect(working?.artifacts).toEqual([]);
    expect(completed?.artifacts[0]?.parts[0]?.content).toEqual({
      $case: 'text',
      value: 're: hello',
    });
    expect(Date.parse(completed?.status?.timestamp ?? '')).not.toBeNaN();

    // Streamed the same way.
    const streamed = client.sendMessageStream(
      request(
        'again',
        { contextId: task.contextId },
        {
          taskPushNotificationConfig: { url: receiver.url },
        },
      ),
    );
    for await (const _ of streamed);
    await receiver.until(4);
    expect(deliveredStates(receiver)).toEqual([WORKING, COMPLETED, WORKING, COMPLETED]);
    expect(receiver.received[2]?.headers['x-a2a-notification-token']).toBeUndefined();
  });

  it('a task through input-required to completed: each state once, in order, to each config', async () => {
    const { client, receiver } = await setUp({}, [], 'trip');
    const asked = asTask(
      await client.sendMessage(
        request(
          'a trip, please',
          {},
          {
            taskPushNotificationConfig: {
              url: receiver.url,
              token: 'tok-1',
              authentication: { scheme: 'Bearer', credentials: 'secret' },
            },
          },
        ),
      ),
    );
    expect(asked.status?.state).toBe(INPUT_REQUIRED);
    await receiver.until(2);
    // A second config, registered while the task waits, hears what happens from then on.
    await client.createTaskPushNotificationConfig(
      config(asked.id, { id: 'later', url: `${receiver.url}?later`, token: 'tok-2' }),
    );
    const done = asTask(await client.sendMessage(request('Paris', { taskId: asked.id })));
    expect(done.status?.state).toBe(COMPLETED);
    await receiver.until(6);
    const first = receiver.received.filter(
      (p) => p.headers['x-a2a-notification-token'] === 'tok-1',
    );
    const later = receiver.received.filter(
      (p) => p.headers['x-a2a-notification-token'] === 'tok-2',
    );
    const states = (pushes: typeof first) => pushes.map((p) => taskOf(p).status?.state);
    expect(states(first)).toEqual([WORKING, INPUT_REQUIRED, WORKING, COMPLETED]);
    expect(states(later)).toEqual([WORKING, COMPLETED]);
    expect(first.every((p) => p.headers.authorization === 'Bearer secret')).toBe(true);
    const question = taskOf(first[1]!).status?.message?.parts[0]?.content;
    expect(question).toEqual({ $case: 'text', value: 'Which city?' });
    expect(receiver.received).toHaveLength(6);
  });

  it('a canceled task is pushed as canceled', async () => {
    const { client, receiver } = await setUp();
    const task = asTask(
      await client.sendMessage(
        request(
          'HANG',
          {},
          { returnImmediately: true, taskPushNotificationConfig: { url: receiver.url } },
        ),
      ),
    );
    await receiver.until(1);
    await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
    await receiver.until(2);
    expect(deliveredStates(receiver)).toEqual([WORKING, CANCELED]);
  });

  it('a receiver that answers 500 twice gets the push once, after two retries (fake timers)', async () => {
    const errors: A2APushError[] = [];
    const { client, receiver } = await setUp({ onPushError: (e) => errors.push(e) }, [500, 500]);
    // From here the retries' waits are the fake clock's: time moves only when the test moves it.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let now = 0;
    const arrivals: number[] = [];
    for (const count of [1, 2, 3, 4]) void receiver.until(count).then(() => arrivals.push(now));
    const sent = client.sendMessage(
      request('hello', {}, { taskPushNotificationConfig: { url: receiver.url } }),
    );
    // Moves the fake clock in small steps, letting I/O run between them, until the POSTs are in.
    let arrived = false;
    void receiver.until(4).then(() => {
      arrived = true;
    });
    while (!arrived) {
      await vi.advanceTimersByTimeAsync(50);
      now += 50;
      await new Promise((resolve) => setImmediate(resolve));
    }
    asTask(await sent);
    expect(receiver.received.map((p) => [p.status, taskOf(p).status?.state])).toEqual([
      [500, WORKING],
      [500, WORKING],
      [200, WORKING],
      [200, COMPLETED],
    ]);
    // Backoff: no retry before its wait (1 s, then 2 s) had passed on the fake clock.
    const [a = 0, b = 0, c = 0] = arrivals;
    expect(b - a).toBeGreaterThanOrEqual(1000);
    expect(c - b).toBeGreaterThanOrEqual(2000);
    expect(errors).toEqual([]);
  });

  it('a 400 is not retried: the push is given up on, onPushError hears it, the task goes on', async () => {
    const errors: A2APushError[] = [];
    let heard: () => void = () => {};
    const reported = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const onPushError = (error: A2APushError) => {
      errors.push(error);
      heard();
    };
    const { client, receiver } = await setUp({ onPushError }, [400]);
    const task = asTask(
      await client.sendMessage(
        request('hello', {}, { taskPushNotificationConfig: { url: receiver.url } }),
      ),
    );
    expect(task.status?.state).toBe(COMPLETED);
    await reported;
    await receiver.until(2);
    // Pushes keep their order per config: the next one (completed) came after the refused one.
    expect(receiver.received.map((p) => [p.status, taskOf(p).status?.state])).toEqual([
      [400, WORKING],
      [200, COMPLETED],
    ]);
    expect(A2APushError.isInstance(errors[0])).toBe(true);
    expect(errors[0]).toMatchObject({
      code: 'A2A_PUSH_UNDELIVERED',
      taskId: task.id,
      url: receiver.url,
      httpStatus: 400,
      attempts: 1,
    });
  });
});

describe('push configs refused: typed errors, nothing stored', () => {
  it('refuses URLs the default policy does not allow (and any non-http scheme with allowUrl)', async () => {
    receiver = await pushReceiver();
    served = await serve({ pushNotifications: {} });
    const { client, engine } = served;
    const task = asTask(await client.sendMessage(request('hello')));
    for (const url of [
      'file:///etc/passwd',
      'http://127.0.0.1:9/hook',
      receiver.url,
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://10.0.0.7/hook',
      'https://172.20.1.1/hook',
      'https://192.168.1.20/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hook',
      'https://[::ffff:127.0.0.1]/hook',
      'https://[fd00::5]/hook',
      'https://[fe80::1]/hook',
      'https://user:pw@hooks.example.com/hook',
      'not a url',
    ]) {
      const refused = await rpcError(
        client.createTaskPushNotificationConfig(config(task.id, { url })),
      );
      expect(refused, url).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/\burl\b/),
      });
    }
    // Sent with a message, the refusal names the field; the message is not sent.
    const threads = (await engine.store!.listThreads()).length;
    const inline = await rpcError(
      client.sendMessage(
        request('hi', {}, { taskPushNotificationConfig: { url: 'https://[::1]/x' } }),
      ),
    );
    expect(inline).toMatchObject({
      code: -32602,
      message: expect.stringMatching(/configuration\.taskPushNotificationConfig\.url/),
    });
    expect((await engine.store!.listThreads()).length).toBe(threads);
    // A public https URL is taken.
    await client.createTaskPushNotificationConfig(
      config(task.id, { url: 'https://hooks.example.com/a2a' }),
    );
    const { configs } = await client.listTaskPushNotificationConfig({ ...list, taskId: task.id });
    expect(configs.map((c) => c.url)).toEqual(['https://hooks.example.com/a2a']);
  });

  it('refuses a token or credentials that cannot be a header, and allowUrl keeps file: out', async () => {
    const { client } = await setUp({ allowUrl: () => true });
    const task = asTask(await client.sendMessage(request('hello')));
    for (const [fields, field] of [
      [{ url: 'file:///etc/passwd' }, 'url'],
      [{ url: 'http://127.0.0.1:9/', token: 'a\r\nX-Evil: 1' }, 'token'],
      [
        { url: 'http://127.0.0.1:9/', authentication: { scheme: 'Bearer x', credentials: 'c' } },
        'authentication.scheme',
      ],
      [
        { url: 'http://127.0.0.1:9/', authentication: { scheme: 'Bearer', credentials: '' } },
        'authentication.credentials',
      ],
    ] as const) {
      const refused = await rpcError(
        client.createTaskPushNotificationConfig(config(task.id, fields)),
      );
      expect(refused, field).toMatchObject({
        code: -32602,
        message: expect.stringContaining(field),
      });
    }
    const { configs } = await client.listTaskPushNotificationConfig({ ...list, taskId: task.id });
    expect(configs).toEqual([]);
  });
});
