import { contentText, type MediaPart, type MessageContent } from '@skein/spec';
import type {
  OpenAIToolMessageParam,
  OpenAIUserContentPart,
  OpenAIUserMessageParam,
} from '../wire-types.js';
import type { PartSourceOptions } from './part-options.js';
import { checkWireContent } from './to-chat-content.js';
import { toChatPart } from './to-chat-part.js';

/** One tool result to send: the call it answers, its content, and where it is (`messages[4].content`). */
export interface ToolResultToSend {
  readonly toolCallId: string;
  readonly content: MessageContent;
  readonly at: string;
}

export type ToolRunMessage = OpenAIToolMessageParam | OpenAIUserMessageParam;

/** `image 1`, `image 2`, `file 1`: each media part by its type and its rank among that type. */
function mediaLabels(media: readonly MediaPart[]): string[] {
  const seen: Record<string, number> = {};
  return media.map((part) => {
    const rank = (seen[part.type] ?? 0) + 1;
    seen[part.type] = rank;
    return `${part.type} ${rank}`;
  });
}

function listed(labels: readonly string[]): string {
  return labels.length < 2
    ? labels.join('')
    : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)!}`;
}

/**
 * The messages for a run of tool results (the answers to one assistant turn's calls). A `tool`
 * message holds only text on the Chat Completions wire, so each gets its result's text (or, with
 * no text, a note such as `[image 1 attached below]`), and the media of all of them follow in
 * ONE `user` message after the last `tool` message: the API wants every call answered by a
 * `tool` message before anything else comes. In that message each result's media are led by a
 * text part naming the tool call they came from. Decision 0032.
 */
export async function toToolRunMessages(
  results: readonly ToolResultToSend[],
  options: PartSourceOptions = {},
): Promise<ToolRunMessage[]> {
  const tools: OpenAIToolMessageParam[] = [];
  const media: OpenAIUserContentPart[] = [];
  for (const result of results) {
    const content = checkWireContent(result.content, result.at);
    const text = contentText(content);
    const own = typeof content === 'string' ? [] : content.filter((p) => p.type !== 'text');
    const labels = mediaLabels(own);
    tools.push({
      role: 'tool',
      content: text === '' && own.length > 0 ? `[${listed(labels)} attached below]` : text,
      // After the content, as a tool message has always been written, so text-only bodies stay byte-identical.
      tool_call_id: result.toolCallId,
    });
    if (own.length === 0 || typeof content === 'string') continue;
    media.push({
      type: 'text',
      text: `Tool call ${result.toolCallId} returned ${listed(labels)}; a tool message cannot carry ${own.length === 1 ? 'it' : 'them'}, so ${own.length === 1 ? 'it follows' : 'they follow'}:`,
    });
    const mapped = content.flatMap((part, index) =>
      part.type === 'text'
        ? []
        : [toChatPart(part, { path: `${result.at}[${index}]`, index }, options)],
    );
    media.push(...(await Promise.all(mapped)));
  }
  return media.length === 0 ? tools : [...tools, { role: 'user', content: media }];
}

/** The messages for one tool result: its `tool` message, then a `user` message with its media. */
export function toToolMessages(
  toolCallId: string,
  content: MessageContent,
  at: string,
  options: PartSourceOptions = {},
): Promise<ToolRunMessage[]> {
  return toToolRunMessages([{ toolCallId, content, at }], options);
}
