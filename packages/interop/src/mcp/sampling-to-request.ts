import type {
  CreateMessageRequest,
  SamplingMessage,
  SamplingMessageContentBlock,
} from '@modelcontextprotocol/sdk/types.js';
import type { ContentPart, LLMMessage, LLMRequest, ToolCall, ToolChoice } from '@skein/spec';

type Params = CreateMessageRequest['params'];

/** The blocks of a sampling message (one, or a list since 2025-11-25). */
function blocksOf(message: SamplingMessage): SamplingMessageContentBlock[] {
  return Array.isArray(message.content) ? message.content : [message.content];
}

function resultText(block: Extract<SamplingMessageContentBlock, { type: 'tool_result' }>): string {
  return block.content.map((c) => (c.type === 'text' ? c.text : `[${c.type}]`)).join('');
}

/** One sampling message as the messages a model sees (tool results are messages of their own). */
function messagesOf(message: SamplingMessage): LLMMessage[] {
  const parts: ContentPart[] = [];
  const calls: ToolCall[] = [];
  const results: LLMMessage[] = [];
  for (const block of blocksOf(message)) {
    if (block.type === 'text') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'image' || block.type === 'audio')
      parts.push({ type: block.type, mediaType: block.mimeType, data: block.data });
    else if (block.type === 'tool_use')
      calls.push({ id: block.id, name: block.name, arguments: JSON.stringify(block.input ?? {}) });
    else if (block.type === 'tool_result')
      results.push({ role: 'tool', toolCallId: block.toolUseId, content: resultText(block) });
  }
  const content = parts.every((p) => p.type === 'text')
    ? parts.map((p) => (p as { text: string }).text).join('')
    : parts;
  const own =
    parts.length > 0 || calls.length > 0
      ? [{ role: message.role, content, ...(calls.length > 0 ? { toolCalls: calls } : {}) }]
      : [];
  return [...results, ...own];
}

function toolChoiceOf(choice: Params['toolChoice']): ToolChoice | undefined {
  return choice?.mode;
}

/**
 * A server's `sampling/createMessage` as a request to the app's model: the system prompt first,
 * the messages (tool uses as tool calls, tool results as tool messages), the tools the server
 * offers the model, and its limits. It is the server's request, not a node's: it runs in no
 * thread (`threadId` and `nodeId` name the server).
 */
export function samplingRequest(params: Params, server: string): LLMRequest {
  const messages: LLMMessage[] = [
    ...(params.systemPrompt ? [{ role: 'system' as const, content: params.systemPrompt }] : []),
    ...params.messages.flatMap(messagesOf),
  ];
  const choice = toolChoiceOf(params.toolChoice);
  const hint = params.modelPreferences?.hints?.find((h) => h.name)?.name;
  return {
    threadId: `mcp:${server}`,
    nodeId: 'sampling',
    messages,
    tools: (params.tools ?? []).map((t) => ({
      name: t.name,
      description: t.description ?? '',
      parameters: t.inputSchema as Record<string, unknown>,
    })),
    maxTokens: params.maxTokens,
    ...(params.temperature === undefined ? {} : { temperature: params.temperature }),
    ...(params.stopSequences === undefined ? {} : { stop: [...params.stopSequences] }),
    ...(choice === undefined ? {} : { toolChoice: choice }),
    ...(hint === undefined ? {} : { model: hint }),
  };
}
