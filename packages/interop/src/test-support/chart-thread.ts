import { type LLMMessage, SkeinEngine, type Tool, WorkflowBuilder } from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { expect } from 'vitest';

/**
 * Runs a thread whose model calls the tool `chart` once and then answers; resolves to the tool
 * message the thread stored, after checking the model's second request held exactly it.
 */
export async function chartToolMessage(tools: readonly Tool[]): Promise<LLMMessage> {
  const llm = new ScriptedLLMClient([
    { toolCalls: [{ name: 'chart', arguments: {} }] },
    { content: 'Seen.' },
  ]);
  const engine = new SkeinEngine({ llm });
  for (const tool of tools) engine.registerTool(tool);
  engine.registerWorkflow(
    new WorkflowBuilder('w', '1')
      .initialTools(['chart'])
      .start()
      .llm('agent')
      .end('end')
      .chain('start', 'agent', 'end')
      .build(),
  );
  const thread = engine.createThread('w', { input: 'chart please' });
  expect((await engine.run(thread)).result.status).toBe('COMPLETED');
  const message = thread.conversation.getAllMessages().find((m) => m.role === 'tool')!;
  expect(llm.requests[1]!.messages.at(-1)!.content).toEqual(message.content);
  return message;
}
