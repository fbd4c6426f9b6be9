import { Role, SendMessageRequest, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { asTask, request, type Served, serve } from './test-support/agent.js';

const texts = (task: Task | undefined) =>
  (task?.artifacts ?? []).flatMap((a) =>
    a.parts.flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])),
  );
const statusText = (task: Task) =>
  (task.status?.message?.parts ?? []).flatMap((p) =>
    p.content?.$case === 'text' ? [p.content.value] : [],
  );

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe('a workflow served as an A2A agent, through the official client', () => {
  it('serves its card with the endpoint it was reached by', async () => {
    served = await serve();
    const card = await served.client.getAgentCard();
    expect(card).toMatchObject({
      name: 'Echo agent',
      capabilities: { streaming: true, pushNotifications: false },
      supportedInterfaces: [
        { url: served.server.endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
    });
    expect(card.skills.map((s) => s.id)).toEqual(['echo']);
  });

  it('runs a turn per task: the answer is its artifact, the context keeps the conversation', async () => {
    served = await serve();
    const { client } = served;
    const first = asTask(await client.sendMessage(request('hello')));
    expect(first.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(texts(first)).toEqual(['re: hello']);
    expect(first.history.map((m) => m.role)).toEqual([Role.ROLE_USER, Role.ROLE_AGENT]);

    const second = asTask(
      await client.sendMessage(request('again', { contextId: first.contextId })),
    );
    expect(second.contextId).toBe(first.contextId);
    expect(second.id).not.toBe(first.id);
    expect(texts(second)).toEqual(['re: again']);
    // One thread holds both turns.
    const thread = (await served.engine.getThread(first.contextId))!;
    expect(
      thread.conversation
        .getAllMessages()
        .filter((m) => m.role === 'user')
        .map((m) => m.content),
    ).toEqual(['hello', 'again']);

    const got = await client.getTask({ tenant: '', id: first.id });
    expect(got.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(texts(got)).toEqual(['re: hello']);
    const listed = await client.listTasks({
      tenant: '',
      contextId: first.contextId,
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: '',
      statusTimestampAfter: undefined,
    });
    expect(listed.tasks.map((t) => t.id)).toEqual([second.id, first.id]);
    expect(listed.totalSize).toBe(2);
  });

  it('a retried message (same messageId) is one turn: the retry answers with the same task', async () => {
    served = await serve();
    const { client } = served;
    const first = asTask(await client.sendMessage(request('hello')));
    const message = { messageId: 'm-2', contextId: first.contextId };
    const sent = asTask(await client.sendMessage(request('once', message)));
    const retried = asTask(await client.sendMessage(request('once', message)));
    expect(retried.id).toBe(sent.id);
    const users = (await served.engine.getThread(first.contextId))!.conversation
      .getAllMessages()
      .filter((m) => m.role === 'user');
    expect(users.map((m) => m.content)).toEqual(['hello', 'once']);
  });

  it('input-required: a pause for input asks the client, and its answer goes on with the task', async () => {
    served = await serve({ workflowId: 'trip' });
    const { client, engine } = served;
    const asked = asTask(await client.sendMessage(request('a trip, please')));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(statusText(asked)).toEqual(['Which city?']);

    const done = asTask(
      await client.sendMessage(request('Paris', { taskId: asked.id, contextId: asked.contextId })),
    );
    expect(done.id).toBe(asked.id);
    expect(done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(texts(done)).toEqual(['re: Plan a trip to Paris']);
    const thread = (await engine.getThread(asked.contextId))!;
    expect(thread.variables.city).toBe('Paris');

    // The task is over: a message naming it is refused, and changes nothing.
    await expect(client.sendMessage(request('Rome', { taskId: asked.id }))).rejects.toThrow(
      /is over/,
    );
    expect((await engine.getThread(asked.contextId))!.variables.city).toBe('Paris');
  });

  it('an answer is taken once: of two at once, one goes on with the task and the other is refused', async () => {
    served = await serve({ workflowId: 'trip' });
    const { client, engine } = served;
    const asked = asTask(await client.sendMessage(request('a trip, please')));
    const answers = await Promise.allSettled(
      ['Oslo', 'Rome'].map((city) => client.sendMessage(request(city, { taskId: asked.id }))),
    );
    const taken = answers.filter((a) => a.status === 'fulfilled');
    const refused = answers.filter((a) => a.status === 'rejected');
    expect(taken).toHaveLength(1);
    expect(refused).toHaveLength(1);
    const city = (await engine.getThread(asked.contextId))!.variables.city;
    expect(['Oslo', 'Rome']).toContain(city);
    expect(texts(asTask((taken[0] as PromiseFulfilledResult<unknown>).value))).toEqual([
      `re: Plan a trip to ${city}`,
    ]);
  });

  it('tool approvals: the calls are asked for as data, and a data answer approves them', async () => {
    served = await serve();
    const { client } = served;
    const asked = asTask(await client.sendMessage(request('Book Oslo')));
    expect(asked.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    const data = asked.status?.message?.parts.find((p) => p.content?.$case === 'data')?.content;
    expect(data).toEqual({
      $case: 'data',
      value: { approvals: [{ id: 'call_book', name: 'book_flight', arguments: { city: 'Oslo' } }] },
    });
    // Text is not an approval: refused, the task still waits.
    await expect(client.sendMessage(request('yes', { taskId: asked.id }))).rejects.toThrow(
      /approvals/,
    );
    const approved = asTask(
      await client.sendMessage(
        SendMessageRequest.fromJSON({
          message: {
            messageId: 'approve-1',
            role: 'ROLE_USER',
            taskId: asked.id,
            parts: [{ data: { approvals: { call_book: { approved: true } } } }],
          },
        }),
      ),
    );
    expect(approved.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(texts(approved)).toEqual(['Done: booked to Oslo']);
  });

  it('streams a task: the task, its work, its answer, its end', async () => {
    served = await serve();
    const events: StreamResponse[] = [];
    for await (const event of served.client.sendMessageStream(request('stream me')))
      events.push(event);
    const kinds = events.map((e) => e.payload?.$case);
    expect(kinds[0]).toBe('task');
    expect(kinds.at(-2)).toBe('artifactUpdate');
    expect(kinds.at(-1)).toBe('statusUpdate');
    const last = events.at(-1)!.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(
      TaskState.TASK_STATE_COMPLETED,
    );
    const artifact = events.at(-2)!.payload;
    expect(
      artifact?.$case === 'artifactUpdate' && artifact.value.artifact?.parts[0]?.content,
    ).toEqual({
      $case: 'text',
      value: 're: stream me',
    });
  });

  it('cancels a task it runs, and subscribing to a task replays it then follows it to its end', async () => {
    served = await serve();
    const { client } = served;
    const started = asTask(
      await client.sendMessage(request('HANG on', {}, { returnImmediately: true })),
    );
    expect([TaskState.TASK_STATE_SUBMITTED, TaskState.TASK_STATE_WORKING]).toContain(
      started.status?.state,
    );
    const followed: StreamResponse[] = [];
    const following = (async () => {
      for await (const event of client.resubscribeTask({ tenant: '', id: started.id }))
        followed.push(event);
    })();
    // The run has started once the task is working in the store.
    await expect
      .poll(async () => (await client.getTask({ tenant: '', id: started.id })).status?.state, {
        timeout: 20_000,
      })
      .toBe(TaskState.TASK_STATE_WORKING);
    await expect.poll(() => followed.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const cancelled = await client.cancelTask({ tenant: '', id: started.id, metadata: undefined });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await following;
    expect(followed[0]?.payload?.$case).toBe('task');
    const end = followed.at(-1)?.payload;
    expect(end?.$case === 'statusUpdate' && end.value.status?.state).toBe(
      TaskState.TASK_STATE_CANCELED,
    );
    // Over: it cannot be cancelled again.
    await expect(
      client.cancelTask({ tenant: '', id: started.id, metadata: undefined }),
    ).rejects.toThrow(/cannot be canceled/);
  });
});
