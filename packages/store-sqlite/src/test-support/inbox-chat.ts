import {
  type CheckpointStore,
  chatWorkflow,
  type LLMMessage,
  SkeinEngine,
  type Tool,
} from '@skein/core';
import { ScriptedLLMClient } from '@skein/core/testing';
import { contentText } from '@skein/spec';

// The chat the inbox tests send to from several processes: a model that looks something up
// whenever the last message is a user's, and answers once the tool has returned, so most turns
// hold a tool round (where a steer or an interrupt can arrive).

const lookup: Tool<{ q: string }> = {
  name: 'lookup',
  description: 'Looks something up',
  parameters: {
    type: 'object',
    properties: { q: { type: 'string' } },
    required: ['q'],
    additionalProperties: false,
  },
  execute: async ({ q }) => {
    // A turn of the event loop, so messages arrive while tool rounds run.
    await new Promise((resolve) => setImmediate(resolve));
    return `found ${q}`;
  },
};

function lastUser(messages: readonly LLMMessage[]): string {
  return contentText(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
}

/** An engine on `store` as `owner`, with the chat registered. */
export function inboxChatEngine(store: CheckpointStore, owner: string): SkeinEngine {
  const llm = new ScriptedLLMClient(
    [
      (request) =>
        request.messages.at(-1)?.role === 'user'
          ? { toolCalls: [{ name: 'lookup', arguments: { q: lastUser(request.messages) } }] }
          : { content: `re: ${lastUser(request.messages)}` },
    ],
    { whenExhausted: 'repeat-last', stream: false },
  );
  const engine = new SkeinEngine({ llm, store, owner });
  engine.registerTools([lookup]);
  engine.registerWorkflow(chatWorkflow({ systemPrompt: 'Be brief.', tools: ['lookup'] }));
  return engine;
}

/**
 * Problems with a stored conversation: an assistant message whose tool calls are not all
 * answered before the next message that is not a tool result (a half tool round).
 */
export function halfToolRounds(messages: readonly LLMMessage[]): string[] {
  const problems: string[] = [];
  for (const [i, message] of messages.entries()) {
    if (!message.toolCalls?.length) continue;
    const answered = new Set<string>();
    for (let j = i + 1; j < messages.length && messages[j]!.role === 'tool'; j++)
      answered.add(messages[j]!.toolCallId ?? '');
    for (const call of message.toolCalls)
      if (!answered.has(call.id)) problems.push(`message ${i}: call ${call.id} has no result`);
  }
  return problems;
}
