import { chatWorkflow, InMemoryCheckpointStore, SkeinEngine } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { a2aAgentTool } from './call/a2a-agent-tool.js';
import { type Served, serve } from './serve/test-support/agent.js';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe('Skein calling Skein over A2A', () => {
  it('the served workflow’s question pauses the calling thread; the person’s answer reaches the served thread', async () => {
    served = await serve({ workflowId: 'trip' });
    const tool = await a2aAgentTool({ url: served.server.url, pollIntervalMs: 1 });
    expect(tool.name).toBe('echo_agent');
    const llm = new ScriptedLLMClient([
      { toolCalls: [{ name: 'echo_agent', arguments: { message: 'a trip, please' } }] },
      (request) => ({ content: JSON.stringify(request.messages.at(-1)!.content) }),
    ]);
    const caller = new SkeinEngine({ llm, store: new InMemoryCheckpointStore() });
    caller.registerTool(tool as never);
    caller.registerWorkflow(chatWorkflow({ tools: [tool.name] }));

    const paused = await caller.send('plans', 'Plan my holiday.');
    expect(paused.thread.status).toBe('PAUSED');
    const pending = paused.thread.state.pending;
    expect(pending?.kind === 'user-input' && pending.prompt).toMatch(/Which city\?/);

    const { thread } = await caller.resume('plans', 'Lisbon');
    expect(thread.status).toBe('COMPLETED');
    expect(thread.conversation.getAllMessages().at(-1)!.content).toContain(
      're: Plan a trip to Lisbon',
    );
    // The served side kept one thread: the question, the answer, the plan.
    const [info] = await served.engine.store!.listThreads();
    const servedThread = (await served.engine.getThread(info!.threadId))!;
    expect(servedThread.status).toBe('COMPLETED');
    expect(servedThread.variables.city).toBe('Lisbon');
  });
});
