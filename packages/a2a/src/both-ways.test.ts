import { afterEach, describe, expect, it } from 'vitest';
import { a2aAgentTool } from './call/a2a-agent-tool.js';
import { runInEngine } from './call/test-support/run-in-engine.js';
import { type Served, serve } from './serve/test-support/agent.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe('Skein calling Skein over A2A', () => {
  it('a thread’s tool runs a turn of a workflow another engine serves, answering its question', async () => {
    served = await serve({ workflowId: 'trip' });
    const tool = await a2aAgentTool({ url: served.server.url, pollIntervalMs: 1 });
    expect(tool.name).toBe('echo_agent');
    const run = await runInEngine(tool as never, [
      { toolCalls: [{ name: 'echo_agent', arguments: { message: 'a trip, please' } }] },
      (request) => {
        // The agent asked where to: the model answers the task it named.
        const asked = request.messages.at(-1)!;
        const data = JSON.stringify(asked.content);
        const taskId = /taskId[^A-Za-z0-9-]+([0-9a-f-]+~[0-9a-f-]+)/.exec(data)?.[1];
        const contextId = /contextId[^A-Za-z0-9-]+([0-9a-f-]{36})/.exec(data)?.[1];
        return {
          toolCalls: [{ name: 'echo_agent', arguments: { message: 'Lisbon', taskId, contextId } }],
        };
      },
      { content: 'All planned.' },
    ]);
    expect(run.result.status).toBe('COMPLETED');
    const [question, answer] = run.toolMessages.map((m) => JSON.stringify(m.content));
    expect(question).toContain('Which city?');
    expect(answer).toContain('re: Plan a trip to Lisbon');
    // The served side kept one thread: the question, the answer, the plan.
    const [info] = await served.engine.store!.listThreads();
    const thread = (await served.engine.getThread(info!.threadId))!;
    expect(thread.status).toBe('COMPLETED');
    expect(thread.variables.city).toBe('Lisbon');
  });
});
