import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskState } from '@a2a-js/sdk';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { agentEngine, request, serve } from './test-support/agent.js';

describe('tasks kept in the engine’s store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-a2a-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a task waiting for input is found, and answered, after the agent restarts', async () => {
    const filename = join(dir, 'agent.db');
    const firstStore = new SqliteCheckpointStore({ filename });
    const before = await serve({ workflowId: 'trip' }, agentEngine(firstStore));
    const asked = await before.client.sendMessage(request('a trip, please'));
    await before.close();
    firstStore.close();

    const store = new SqliteCheckpointStore({ filename });
    const after = await serve({ workflowId: 'trip' }, agentEngine(store));
    try {
      const id = 'id' in asked ? asked.id : '';
      const found = await after.client.getTask({ tenant: '', id });
      expect(found.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
      const done = await after.client.sendMessage(request('Porto', { taskId: id }));
      expect('status' in done && done.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    } finally {
      await after.close();
      store.close();
    }
  });
});
