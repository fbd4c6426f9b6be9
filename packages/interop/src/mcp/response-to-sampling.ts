import type {
  CreateMessageResult,
  CreateMessageResultWithTools,
} from '@modelcontextprotocol/sdk/types.js';
import { encodeBase64, type FinishReason, type LLMResponse, toolCallInput } from '@skein/spec';

const STOP: Readonly<Record<FinishReason, string>> = {
  stop: 'endTurn',
  tool_calls: 'toolUse',
  length: 'maxTokens',
  content_filter: 'contentFilter',
  error: 'error',
  other: 'other',
};

type Block = Exclude<CreateMessageResultWithTools['content'], unknown[]>;

/**
 * What the app's model answered, as a sampling result: its text, image and audio parts, its tool
 * calls as `tool_use` blocks (when the server offered tools), the model's name and why it
 * stopped. A part MCP cannot carry (a file, media by URL or by stored digest) is named in text.
 */
export function samplingResult(
  response: LLMResponse,
  model: string,
): CreateMessageResult | CreateMessageResultWithTools {
  const { content, toolCalls = [] } = response.message;
  const blocks: Block[] =
    typeof content === 'string'
      ? content === ''
        ? []
        : [{ type: 'text', text: content }]
      : content.map((part): Block => {
          if (part.type === 'text') return { type: 'text', text: part.text };
          if ((part.type === 'image' || part.type === 'audio') && part.data !== undefined)
            return {
              type: part.type,
              data: typeof part.data === 'string' ? part.data : encodeBase64(part.data),
              mimeType: part.mediaType,
            };
          return { type: 'text', text: `[${part.type} ${part.mediaType}]` };
        });
  for (const call of toolCalls)
    blocks.push({
      type: 'tool_use',
      id: call.id,
      name: call.name,
      input: toolCallInput(call.arguments),
    });
  if (blocks.length === 0) blocks.push({ type: 'text', text: '' });
  return {
    role: 'assistant',
    content: blocks.length === 1 ? blocks[0]! : blocks,
    model: response.model ?? model,
    stopReason: STOP[response.finishReason],
  } as CreateMessageResultWithTools;
}
