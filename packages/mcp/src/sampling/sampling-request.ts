import type {
  CreateMessageRequest,
  SamplingMessage,
  SamplingMessageContentBlock,
} from '@modelcontextprotocol/sdk/types.js';
import type { ContentPart, LLMMessage, LLMRequest, ToolChoice } from '@skein/spec';
import { encodeBase64, partBytes, toolCallInput } from '@skein/spec';

type Params = CreateMessageRequest['params'];

function text(content: LLMMessage['content']): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

// What a sampling message can hold of a part: text, an image or audio clip held inline; anything
// else (a file, a part by URL or by stored digest) is named in text, as a summary call sees it.
function block(part: ContentPart): SamplingMessageContentBlock {
  if (part.type === 'text') return { type: 'text', text: part.text };
  const bytes = part.type === 'file' ? undefined : partBytes(part, 'message part');
  if (bytes === undefined) {
    const name = part.type === 'file' && part.filename ? ` ${part.filename}` : '';
    return { type: 'text', text: `[${part.type}${name} ${part.mediaType}]` };
  }
  const data = typeof part.data === 'string' ? part.data : encodeBase64(bytes);
  return { type: part.type as 'image' | 'audio', data, mimeType: part.mediaType };
}

function message(m: LLMMessage): SamplingMessage | undefined {
  if (m.role === 'tool')
    return {
      role: 'user',
      content: {
        type: 'tool_result',
        toolUseId: m.toolCallId ?? '',
        content: [{ type: 'text', text: text(m.content) }],
      },
    };
  if (m.role !== 'user' && m.role !== 'assistant') return undefined;
  const blocks: SamplingMessageContentBlock[] =
    typeof m.content === 'string'
      ? m.content === ''
        ? []
        : [{ type: 'text', text: m.content }]
      : m.content.map(block);
  for (const call of m.toolCalls ?? [])
    blocks.push({
      type: 'tool_use',
      id: call.id,
      name: call.name,
      input: toolCallInput(call.arguments),
    });
  if (blocks.length === 0) return undefined;
  return { role: m.role, content: blocks.length === 1 ? blocks[0]! : blocks };
}

function toolChoice(choice: ToolChoice | undefined): Params['toolChoice'] {
  if (choice === undefined) return undefined;
  if (choice === 'auto' || choice === 'none' || choice === 'required') return { mode: choice };
  // MCP cannot name one tool: the model must call one, and the tools are only that one.
  return { mode: 'required' };
}

/**
 * An engine request as MCP `sampling/createMessage` params: system messages as the system
 * prompt, the turns as sampling messages (tool calls as `tool_use`, tool results as
 * `tool_result`), the tools with their JSON Schemas, and `maxTokens` (MCP requires one).
 */
export function samplingParams(request: LLMRequest, defaultMaxTokens: number): Params {
  const system = request.messages
    .filter((m) => m.role === 'system')
    .map((m) => text(m.content))
    .filter((t) => t !== '');
  const named = typeof request.toolChoice === 'object' ? request.toolChoice.name : undefined;
  const tools = request.tools.filter((t) => named === undefined || t.name === named);
  const choice = toolChoice(request.toolChoice);
  return {
    messages: request.messages.map(message).filter((m): m is SamplingMessage => m !== undefined),
    maxTokens: request.maxTokens ?? defaultMaxTokens,
    ...(system.length > 0 ? { systemPrompt: system.join('\n\n') } : {}),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.stop === undefined ? {} : { stopSequences: [...request.stop] }),
    ...(request.model === undefined
      ? {}
      : { modelPreferences: { hints: [{ name: request.model }] } }),
    ...(tools.length > 0
      ? {
          tools: tools.map((t) => ({
            name: t.name,
            description: t.description,
            inputSchema: t.parameters as { type: 'object' },
          })),
          ...(choice === undefined ? {} : { toolChoice: choice }),
        }
      : {}),
  };
}
