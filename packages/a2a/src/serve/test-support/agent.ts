// The engine the A2A tests serve: a chat that answers "re: <last user text>" (or hangs on HANG,
// to be cancelled; books a flight, with approval, on "Book <city>"), a trip that asks where to
// before it plans, and an `await` that waits for the event `go` (engine.signal) before it answers.
import { randomUUID } from 'node:crypto';
import {
  type SendMessageRequest as A2ASendMessageRequest,
  SendMessageRequest,
  type Task,
} from '@a2a-js/sdk';
import { type Client, ClientFactory } from '@a2a-js/sdk/client';
import {
  type CheckpointStore,
  chatWorkflow,
  defineTool,
  InMemoryCheckpointStore,
  SkeinEngine,
  WorkflowBuilder,
} from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { contentText, type LLMRequest } from '@skein/spec';
import { expect } from 'vitest';
import { type ListenA2AOptions, listenA2A, type RunningA2AServer } from '../listen-a2a.js';

function model(): ScriptedLLMClient {
  return new ScriptedLLMClient((request: LLMRequest) => {
    if (request.messages.at(-1)?.role === 'tool')
      return { content: `Done: ${contentText(request.messages.at(-1)!.content)}` };
    const last = request.messages.filter((m) => m.role === 'user').at(-1);
    const text = contentText(last?.content ?? '');
    if (text.includes('HANG')) return { hang: true };
    if (text.startsWith('Book '))
      return {
        toolCalls: [{ id: 'call_book', name: 'book_flight', arguments: { city: text.slice(5) } }],
      };
    return { content: `re: ${text}` };
  });
}

export function agentEngine(store: CheckpointStore = new InMemoryCheckpointStore()): SkeinEngine {
  const engine = new SkeinEngine({ llm: model(), store });
  engine.registerTool(
    defineTool({
      name: 'book_flight',
      description: 'Books a flight',
      parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      needsApproval: true,
      execute: ({ city }: { city: string }) => `booked to ${city}`,
    }),
  );
  engine.registerWorkflow(chatWorkflow({ systemPrompt: 'Be brief.', tools: ['book_flight'] }));
  engine.registerWorkflow(
    new WorkflowBuilder('trip', '1')
      .start()
      .userInteraction('where', { prompt: 'Which city?', variable: 'city' })
      .llm('plan', { prompt: 'Plan a trip to {{ vars.city }}', outputVariable: 'plan' })
      .end('end', { output: 'vars.plan' })
      .chain('start', 'where', 'plan', 'end')
      .build(),
  );
  engine.registerWorkflow(
    new WorkflowBuilder('await', '1')
      .start()
      .waitForEvent('go', { event: 'go' })
      .llm('answer')
      .end('end', { output: 'nodes.answer' })
      .chain('start', 'go', 'answer', 'end')
      .build(),
  );
  return engine;
}

const CARD = {
  name: 'Echo agent',
  description: 'Answers what it is told',
  skills: [{ id: 'echo', name: 'Echo', description: 'Says it back', tags: ['test'] }],
};

export interface Served {
  readonly engine: SkeinEngine;
  readonly server: RunningA2AServer;
  readonly client: Client;
  close(): Promise<void>;
}

/** An agent on 127.0.0.1 and the official client, made from its card. */
export async function serve(
  options: Partial<ListenA2AOptions> = {},
  engine = agentEngine(),
): Promise<Served> {
  const server = await listenA2A(engine, { card: CARD, ...options });
  const client = await new ClientFactory().createFromUrl(server.url);
  return { engine, server, client, close: () => server.close() };
}

/** A SendMessage request as a client writes it (the wire's JSON form, read by the SDK). */
export function request(
  text: string,
  message: Record<string, unknown> = {},
  configuration?: Record<string, unknown>,
): A2ASendMessageRequest {
  return SendMessageRequest.fromJSON({
    message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...message },
    ...(configuration ? { configuration } : {}),
  });
}

/** A `SendMessage` result that must be a task (not a plain message). */
export function asTask(result: unknown): Task {
  expect(result).toHaveProperty('status');
  return result as Task;
}
