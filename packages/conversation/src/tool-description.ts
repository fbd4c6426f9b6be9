import { type LLMMessage, TOOL_DESCRIPTION_KIND, type ToolSpec } from '@skein/spec';

/** Turns the initial tool set into the text of the tool-description message. */
export type ToolDescriptionFormatter = (tools: readonly ToolSpec[]) => string;

export const defaultFormatToolDescription: ToolDescriptionFormatter = (tools) =>
  ['Available tools:', ...tools.map((tool) => `- ${tool.name}: ${tool.description}`)].join('\n');

/** Recognised by its metadata marker only: a user's system prompt that happens to start with
 * "Available tools:" is not a tool description. */
export function isToolDescription(message: LLMMessage): boolean {
  return message.role === 'system' && message.metadata?.kind === TOOL_DESCRIPTION_KIND;
}

export function buildToolDescriptionMessage(
  tools: readonly ToolSpec[],
  format: ToolDescriptionFormatter,
): LLMMessage {
  return {
    role: 'system',
    content: format(tools),
    metadata: { kind: TOOL_DESCRIPTION_KIND, tools: tools.map((tool) => tool.name) },
  };
}
