import type { ContentPart, LLMMessage, MediaPart } from '@skein/spec';
import { partByteLength } from '@skein/spec';

/** What a summary call sees of images, audio and files: a line naming each, or the part itself. */
export type SummaryAttachments = 'placeholder' | 'send';

/**
 * The summary call's instructions unless the operation names its own `prompt`. The summary
 * replaces what it covers in every later request, so it has to carry what the assistant still
 * needs rather than read well.
 */
export const DEFAULT_SUMMARY_PROMPT = [
  'You write the summary that will stand in for the earlier part of a conversation between a user and an assistant that uses tools.',
  'The assistant will see only your summary and the most recent messages, so keep everything it still needs: what the user asked for and decided, names, numbers, dates, what each tool call found, what was promised, and what is still open.',
  'If the transcript starts with an earlier summary, fold it in. Write plain notes in the language of the conversation; do not address the user and do not invent anything.',
].join(' ');

/**
 * The request messages of a summary call: `prompt` as the system message, and the messages to
 * summarise as one transcript in a user message. A transcript rather than the messages
 * themselves: the summary model answers in text without being offered the conversation's tools,
 * and tool calls and results read as lines, so no provider rule about their order applies.
 */
export function summaryRequestMessages(
  source: readonly LLMMessage[],
  prompt: string,
  attachments: SummaryAttachments,
): LLMMessage[] {
  return [
    { role: 'system', content: prompt },
    { role: 'user', content: transcript(source, attachments) },
  ];
}

function transcript(
  source: readonly LLMMessage[],
  attachments: SummaryAttachments,
): string | ContentPart[] {
  const parts: ContentPart[] = [];
  let text = 'Conversation to summarise:\n';
  for (const message of source) {
    text += `\n${speaker(message)}:`;
    const content = typeof message.content === 'string' ? [message.content] : message.content;
    for (const part of content) {
      if (typeof part === 'string') text += part === '' ? '' : ` ${part}`;
      else if (part.type === 'text') text += part.text === '' ? '' : ` ${part.text}`;
      else if (attachments === 'send') {
        parts.push({ type: 'text', text }, part);
        text = '';
      } else text += ` ${placeholder(part)}`;
    }
    for (const call of message.toolCalls ?? [])
      text += `\n  calls ${call.name} (${call.id}) with ${call.arguments || '{}'}`;
  }
  if (parts.length === 0) return text;
  if (text !== '') parts.push({ type: 'text', text });
  return parts;
}

function speaker(message: LLMMessage): string {
  if (message.metadata?.kind === 'summary') return 'Summary of what came before';
  if (message.role === 'tool')
    return `Result of ${message.name ?? 'a tool'}${message.toolCallId ? ` (${message.toolCallId})` : ''}`;
  return message.role === 'assistant' ? 'Assistant' : message.role === 'user' ? 'User' : 'System';
}

/** A media part as a line of text: its kind, type, name and size, never its bytes. */
function placeholder(part: MediaPart): string {
  const size = partByteLength(part);
  const name = part.type === 'file' && part.filename ? ` "${part.filename}"` : '';
  return `[${part.type}${name}, ${part.mediaType}${size === undefined ? '' : `, ${size} bytes`}${part.url !== undefined && /^https?:/i.test(part.url) ? `, at ${part.url}` : ''}]`;
}
