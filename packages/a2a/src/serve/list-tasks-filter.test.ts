import { type Task, TaskState } from '@a2a-js/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { request, type Served, serve } from './test-support/agent.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe('ListTasks statusTimestampAfter', () => {
  it('takes tasks updated at or after the time given (A2A: greater than or equal)', async () => {
    served = await serve();
    const { client, engine } = served;
    const task = (await client.sendMessage(request('hello'))) as Task;
    const [info] = await engine.store!.listThreads();
    const list = (statusTimestampAfter: string) =>
      client.listTasks({
        tenant: '',
        contextId: task.contextId,
        status: TaskState.TASK_STATE_UNSPECIFIED,
        pageToken: '',
        statusTimestampAfter,
      });
    const at = info!.updatedAt;
    expect((await list(at)).tasks.map((t) => t.id)).toEqual([task.id]);
    const later = new Date(Date.parse(at) + 1).toISOString();
    expect((await list(later)).tasks).toEqual([]);
  });
});
