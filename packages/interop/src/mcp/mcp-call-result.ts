import type {
  CallToolResult,
  CompatibilityCallToolResult,
  ContentBlock,
} from '@modelcontextprotocol/sdk/types.js';
import { type ContentPart, isMediaPart, type ToolOutput, toolOutput } from '@skein/spec';
import { describeBlock, mcpContentPart } from './mcp-content-part.js';

/** What a converted MCP tool keeps beside its text in `ToolOutput.data`. */
export interface McpResultData {
  /**
   * The blocks that are neither text nor a media part of the result (resource links, embedded
   * text resources); images, audio and embedded files are in the result's content parts only.
   */
  readonly content?: readonly ContentBlock[];
  readonly structuredContent?: Readonly<Record<string, unknown>>;
}

/**
 * An MCP tool result as a Skein `ToolOutput`: its text (text blocks, embedded text resources and
 * resource links, joined with newlines) and its images, audio and embedded files as media parts
 * the model sees (see `mcpContentPart`); `isError` kept as the error flag. With no text the text
 * is the structured content as JSON, or a short description of the other blocks, so the model
 * always reads something.
 *
 * `data` holds `structuredContent` and the blocks that became neither text nor a media part. A
 * media block's bytes are in its part only: stored once, by digest, wherever the thread's
 * messages show it (decision 0033), never a second time in the tool message's metadata.
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
  const blocks = result.content as ContentBlock[];
  const texts: string[] = [];
  const media: ContentPart[] = [];
  // Blocks that became neither text nor a media part (resource links, text resources) are kept
  // in `data`; a media block's bytes go only in its part, so a store holds them once (by digest).
  const others: ContentBlock[] = [];
  for (const block of blocks) {
    const part = mcpContentPart(block);
    if (isMediaPart(part)) media.push(part);
    else texts.push(part.text);
    if (block.type !== 'text' && !isMediaPart(part)) others.push(block);
  }
  const described = blocks.filter((block) => block.type !== 'text');
  const structured = result.structuredContent as Record<string, unknown> | undefined;
  let text = texts.join('\n');
  if (texts.length === 0)
    text =
      structured !== undefined
        ? JSON.stringify(structured)
        : described.map(describeBlock).join(' ');
  const data: McpResultData = {
    ...(others.length > 0 ? { content: others } : {}),
    ...(structured !== undefined ? { structuredContent: structured } : {}),
  };
  return toolOutput({
    // The text as one part first: the engine stores a result's text before its media anyway.
    content: media.length > 0 ? [{ type: 'text', text }, ...media] : text,
    isError: result.isError === true,
    ...(others.length > 0 || structured !== undefined ? { data } : {}),
  });
}
