import type {
  CallToolResult,
  CompatibilityCallToolResult,
  ContentBlock,
} from '@modelcontextprotocol/sdk/types.js';
import { type ToolOutput, toolOutput } from '@skein/spec';

/** What a converted MCP tool keeps beside its text in `ToolOutput.data`. */
export interface McpResultData {
  /** The content parts that are not text (images, audio, resources, resource links). */
  readonly content?: readonly ContentBlock[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
}

function describe(part: ContentBlock): string {
  switch (part.type) {
    case 'image':
    case 'audio':
      return `[${part.type} ${part.mimeType}]`;
    case 'resource':
      return `[resource ${part.resource.uri}]`;
    case 'resource_link':
      return `[resource link ${part.uri}]`;
    default:
      return `[${part.type}]`;
  }
}

/**
 * An MCP tool result as a Skein `ToolOutput`: text parts joined with newlines, other parts and
 * `structuredContent` kept in `data`, `isError` kept as the error flag. With no text part the text
 * is the structured content as JSON, or a short description of the other parts, so the model
 * always reads something.
 */
export function fromMcpCallResult(
  result: CallToolResult | CompatibilityCallToolResult,
): ToolOutput {
  if (!Array.isArray(result.content)) {
    // Servers on the 2024-10-07 protocol answer `{ toolResult }`.
    const legacy = (result as { toolResult?: unknown }).toolResult;
    return toolOutput({
      content: typeof legacy === 'string' ? legacy : (JSON.stringify(legacy) ?? ''),
    });
  }
  const parts = result.content as ContentBlock[];
  const texts: string[] = [];
  const others: ContentBlock[] = [];
  for (const part of parts) {
    if (part.type === 'text') texts.push(part.text);
    else others.push(part);
  }
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  let content = texts.join('\n');
  if (texts.length === 0)
    content =
      structured !== undefined ? JSON.stringify(structured) : others.map(describe).join(' ');
  const data: McpResultData = {
    ...(others.length > 0 ? { content: others } : {}),
    ...(structured !== undefined ? { structuredContent: structured } : {}),
  };
  return toolOutput({
    content,
    isError: result.isError === true,
    ...(others.length > 0 || structured !== undefined ? { data } : {}),
  });
}
