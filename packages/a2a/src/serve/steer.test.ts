import { TaskState } from '@a2a-js/sdk';
import { chatWorkflow, defineTool, InMemoryCheckpointStore, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { contentText, type LLMRequest } from '@skein/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { request, type Served, serve } from './test-support/agent.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

/** A chat whose first model call looks something up with a tool the test lets return. */
function lookingUp() {
  let started!: () => void;
  let finish!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const done = new Promise<void>((resolve) => (finish = resolve));
  const engine = new SkeinEngine({
    llm: new ScriptedLLMClient((req: LLMRequest) => {
      const users = req.messages
        .filter((m) => m.role === 'user')
        .map((m) => contentText(m.content));
      return req.messages.some((m) => m.role === 'tool')
        ? { content: `re: ${users.join(' + ')}` }
        : { toolCalls: [{ id: 'call_1', name: 'lookup', arguments: {} }] };
    }),
    store: new InMemoryCheckpointStore(),
  });
  engine.registerTool(
    defineTool({
      name: 'lookup',
      description: 'Looks it up',
      parameters: { type: 'object', properties: {} },
      execute: async () => {
        started();
        await done;
        return 'found';
      },
    }),
  );
  engine.registerWorkflow(chatWorkflow({ tools: ['lookup'] }));
  return { engine, running, finish };
}

describe('a message to a task that works', () => {
  it('joins its running turn before the next model call: one task, both messages answered', async () => {
    const { engine, running, finish } = lookingUp();
    served = await serve({}, engine);
    const { client } = served;
    const started = await client.sendMessage(request('first', {}, { returnImmediately: true }));
    const taskId = 'id' in started ? started.id : '';
    await running;
    const steered = await client.sendMessage(
      request('also this', { taskId }, { returnImmediately: true }),
    );
    expect('id' in steered && steered.id).toBe(taskId);
    finish();
    await expect
      .poll(async () => (await client.getTask({ tenant: '', id: taskId })).status?.state, {
        timeout: 20_000,
      })
      .toBe(TaskState.TASK_STATE_COMPLETED);
    const task = await client.getTask({ tenant: '', id: taskId });
    const answer = task.artifacts[0]?.parts[0]?.content;
    expect(answer).toEqual({ $case: 'text', value: 're: first + also this' });
    const listed = await client.listTasks({
      tenant: '',
      contextId: task.contextId,
      status: TaskState.TASK_STATE_UNSPECIFIED,
      pageToken: '',
      statusTimestampAfter: undefined,
    });
    expect(listed.tasks.map((t) => t.id)).toEqual([taskId]);
  });
});
