import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { type Task, TaskState } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type Served, serve } from './test-support/agent.js';
import { deliveredStates, type PushReceiver, pushReceiver } from './test-support/push-receiver.js';

let served: Served | undefined;
let receiver: PushReceiver | undefined;
afterEach(async () => {
  await served?.close();
  await receiver?.close();
  served = receiver = undefined;
});

/** A JSON-RPC call as any HTTP client makes it, with the A2A version header. */
async function rpc(
  endpoint: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

describe('hostile inputs to the A2A agent: typed errors, nothing changed', () => {
  it('refuses unknown task ids, another context’s task, a wrong role and a message without parts', async () => {
    served = await serve();
    const { server, engine } = served;
    const call = (method: string, params: unknown) =>
      rpc(server.endpoint, { jsonrpc: '2.0', id: 1, method, params });
    for (const id of ['nope', 'nope~x', '~', `${randomUUID()}~${randomUUID()}`]) {
      const got = await call('GetTask', { id });
      expect(got.body).toMatchObject({ error: { code: -32001 } });
    }
    const wrongRole = await call('SendMessage', {
      message: { messageId: 'm1', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] },
    });
    expect(wrongRole.body).toMatchObject({ error: { code: -32602, message: /ROLE_USER/ } });
    const noParts = await call('SendMessage', {
      message: { messageId: 'm2', role: 'ROLE_USER', parts: [] },
    });
    expect(noParts.body).toMatchObject({ error: { code: -32602, message: /no parts/ } });
    const noId = await call('SendMessage', {
      message: { messageId: '', role: 'ROLE_USER', parts: [{ text: 'x' }] },
    });
    expect(noId.body).toMatchObject({ error: { code: -32602 } });
    const badPage = await call('ListTasks', { pageSize: 1000 });
    expect(badPage.body).toMatchObject({ error: { code: -32602 } });
    // A server not given `pushNotifications` sends none, and says so.
    const push = await call('CreateTaskPushNotificationConfig', {
      taskId: 'x~y',
      url: 'http://127.0.0.1:1/hook',
    });
    expect(push.body).toMatchObject({ error: { code: -32003 } });
    for (const params of [
      { status: 'TASK_STATE_NO_SUCH' },
      { historyLength: -1 },
      { statusTimestampAfter: '-1' },
      { statusTimestampAfter: 'yesterday' },
    ])
      expect((await call('ListTasks', params)).body).toMatchObject({ error: { code: -32602 } });
    expect((await call('GetTask', { id: 'a~b', historyLength: -2 })).body).toMatchObject({
      error: { code: -32602 },
    });
    // The card says there is no extended card: unsupported (A2A 1.0 §3.3.4).
    expect((await call('GetExtendedAgentCard', {})).body).toMatchObject({
      error: { code: -32004 },
    });
    expect(await engine.store!.listThreads()).toEqual([]);
  });

  it('answers a body that is not JSON, or not a JSON-RPC request, as JSON-RPC errors', async () => {
    served = await serve();
    const { endpoint } = served.server;
    expect((await rpc(endpoint, '{"jsonrpc": "2.0", "method": ')).body).toMatchObject({
      id: null,
      error: { code: -32700 },
    });
    for (const body of [
      [],
      { jsonrpc: '1.0', id: 1, method: 'GetTask', params: { id: 'x' } },
      { jsonrpc: '2.0', id: 2, params: { id: 'x' } },
      { jsonrpc: '2.0', id: { no: 1 }, method: 'GetTask', params: { id: 'x' } },
    ])
      expect((await rpc(endpoint, body)).body).toMatchObject({ error: { code: -32600 } });
    const objectId = await rpc(endpoint, { jsonrpc: '2.0', id: { no: 1 }, method: 'GetTask' });
    expect(objectId.body).toMatchObject({ id: null });
  });

  it('answers HTTP refusals before the transport: Host, origin, method, body size and type', async () => {
    served = await serve({ maxBodyBytes: 1024 });
    const { server } = served;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } });
    const post = (headers: Record<string, string>, payload = body) =>
      fetch(server.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
        body: payload,
      });
    // fetch sends the Host it was given a URL for: a rebound DNS name is made by hand.
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        server.endpoint,
        { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(rebound).toBe(421);
    expect((await post({ origin: 'https://evil.example' })).status).toBe(403);
    expect((await post({}, 'x'.repeat(2048))).status).toBe(413);
    expect((await post({ 'content-type': 'text/plain' })).status).toBe(415);
    expect((await fetch(server.endpoint)).status).toBe(405);
    expect((await fetch(`${server.url}/elsewhere`)).status).toBe(404);
    // Without the 1.0 version header the client speaks another version: refused by name.
    const old = await rpc(server.endpoint, JSON.parse(body), { 'a2a-version': '0.3' });
    expect(old.body).toMatchObject({ error: { code: -32009 } });
  });

  it('a caller never reaches another’s task or context', async () => {
    const authorize = (req: Request) => req.headers.get('authorization')?.replace(/^Bearer /, '');
    served = await serve({ authorize });
    const { server, engine } = served;
    const call = (user: string, method: string, params: unknown) =>
      rpc(
        server.endpoint,
        { jsonrpc: '2.0', id: 1, method, params },
        { authorization: `Bearer ${user}` },
      );
    const made = (await call('alice', 'SendMessage', {
      message: { messageId: 'a1', role: 'ROLE_USER', parts: [{ text: 'mine' }] },
    })) as { body: { result: { task: Task } } };
    const task = made.body.result.task;
    expect(task.status).toMatchObject({ state: 'TASK_STATE_COMPLETED' });
    // Bob sees no such task, cannot continue it, cancel it, follow it, nor write into its context.
    expect((await call('bob', 'GetTask', { id: task.id })).body).toMatchObject({
      error: { code: -32001 },
    });
    expect(
      (
        await call('bob', 'SendMessage', {
          message: { messageId: 'b1', role: 'ROLE_USER', parts: [{ text: 'x' }], taskId: task.id },
        })
      ).body,
    ).toMatchObject({ error: { code: -32001 } });
    expect((await call('bob', 'CancelTask', { id: task.id })).body).toMatchObject({
      error: { code: -32001 },
    });
    const intoContext = await call('bob', 'SendMessage', {
      message: {
        messageId: 'b2',
        role: 'ROLE_USER',
        parts: [{ text: 'x' }],
        contextId: task.contextId,
      },
    });
    expect(intoContext.body).toMatchObject({ error: {} });
    const listed = (await call('bob', 'ListTasks', {})) as {
      body: { result: { tasks: unknown[] } };
    };
    expect(listed.body.result.tasks).toEqual([]);
    // No caller: 401.
    const anonymous = await rpc(server.endpoint, { jsonrpc: '2.0', id: 1, method: 'ListTasks' });
    expect(anonymous.status).toBe(401);
    // Alice's thread is as she left it.
    const thread = (await engine.getThread(task.contextId))!;
    expect(thread.conversation.getAllMessages().filter((m) => m.role === 'user')).toHaveLength(1);
    expect((await call('alice', 'GetTask', { id: task.id })).body).toMatchObject({
      result: { status: { state: 'TASK_STATE_COMPLETED' } },
    });
  });

  it('a caller never reaches another’s push configs: not found, nothing stored or deleted', async () => {
    const authorize = (req: Request) => req.headers.get('authorization')?.replace(/^Bearer /, '');
    receiver = await pushReceiver();
    const allowUrl = (url: URL) => url.hostname === '127.0.0.1';
    served = await serve({ authorize, pushNotifications: { allowUrl } });
    const call = async (user: string, method: string, params: unknown) =>
      (
        await rpc(
          served!.server.endpoint,
          { jsonrpc: '2.0', id: 1, method, params },
          { authorization: `Bearer ${user}` },
        )
      ).body;
    const made = (await call('alice', 'SendMessage', {
      message: { messageId: 'a1', role: 'ROLE_USER', parts: [{ text: 'mine' }] },
      configuration: { taskPushNotificationConfig: { id: 'hers', url: receiver.url } },
    })) as { result: { task: Task } };
    const taskId = made.result.task.id;
    // Her pushes go out as anyone's do.
    await receiver.until(2);
    expect(deliveredStates(receiver)).toEqual([
      TaskState.TASK_STATE_WORKING,
      TaskState.TASK_STATE_COMPLETED,
    ]);
    const notFound = { error: { code: -32001 } };
    const theirs = { taskId, url: `${receiver.url}?bob` };
    expect(await call('bob', 'CreateTaskPushNotificationConfig', theirs)).toMatchObject(notFound);
    expect(
      await call('bob', 'GetTaskPushNotificationConfig', { taskId, id: 'hers' }),
    ).toMatchObject(notFound);
    expect(await call('bob', 'ListTaskPushNotificationConfigs', { taskId })).toMatchObject(
      notFound,
    );
    expect(
      await call('bob', 'DeleteTaskPushNotificationConfig', { taskId, id: 'hers' }),
    ).toMatchObject(notFound);
    const hers = (await call('alice', 'ListTaskPushNotificationConfigs', { taskId })) as {
      result: { configs: { id: string; url: string }[] };
    };
    expect(hers.result.configs.map((c) => [c.id, c.url])).toEqual([['hers', receiver.url]]);
  });
});
