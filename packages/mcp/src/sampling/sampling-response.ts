import type {
  CreateMessageResult,
  CreateMessageResultWithTools,
} from '@modelcontextprotocol/sdk/types.js';
import type { ContentPart, FinishReason, LLMResponse, ToolCall } from '@skein/spec';

const FINISH: Readonly<Record<string, FinishReason>> = {
  endTurn: 'stop',
  stopSequence: 'stop',
  maxTokens: 'length',
  toolUse: 'tool_calls',
};

/**
 * What the client's model answered, as the engine's response: its text (or its image and audio
 * parts beside the text), its `tool_use` blocks as tool calls, and why it stopped.
 */
export function samplingResponse(
  result: CreateMessageResult | CreateMessageResultWithTools,
): LLMResponse {
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  const parts: ContentPart[] = [];
  const toolCalls: ToolCall[] = [];
  for (const b of blocks) {
    if (b.type === 'text') parts.push({ type: 'text', text: b.text });
    else if (b.type === 'image' || b.type === 'audio')
      parts.push({ type: b.type, mediaType: b.mimeType, data: b.data });
    else if (b.type === 'tool_use')
      toolCalls.push({ id: b.id, name: b.name, arguments: JSON.stringify(b.input ?? {}) });
  }
  const textOnly = parts.every((p) => p.type === 'text');
  const content = textOnly ? parts.map((p) => (p as { text: string }).text).join('') : parts;
  const finishReason =
    toolCalls.length > 0 ? 'tool_calls' : (FINISH[result.stopReason ?? ''] ?? 'other');
  return {
    message: { role: 'assistant', content, ...(toolCalls.length > 0 ? { toolCalls } : {}) },
    finishReason,
    model: result.model,
  };
}
