import type { ContentPart, LLMMessage, MediaPart, Role } from '@skein/spec';
import { attachmentUri } from './thread-uri.js';

/** One message of a transcript: its text, with each media part named where it can be read. */
export interface TranscriptMessage {
  readonly role: Role;
  readonly content: string;
  readonly toolCalls?: readonly {
    readonly id: string;
    readonly name: string;
    readonly arguments: string;
  }[];
  readonly toolCallId?: string;
}

// Where a client reads the bytes: the thread's attachment, or the part's own http(s) URL. Bytes
// held inline (a store that keeps media inline) are named only.
function whereToRead(part: MediaPart, threadId: string): string {
  if (part.ref !== undefined) return ` ${attachmentUri(threadId, part.ref.digest)}`;
  if (part.url !== undefined && !part.url.startsWith('data:')) return ` ${part.url}`;
  return '';
}

function partText(part: ContentPart, threadId: string): string {
  if (part.type === 'text') return part.text;
  const filename = part.type === 'file' && part.filename !== undefined ? ` ${part.filename}` : '';
  return `[${part.type} ${part.mediaType}${filename}${whereToRead(part, threadId)}]`;
}

// Text parts joined as `contentText` joins them (nothing between); a media part on its own line.
function contentOf(content: LLMMessage['content'], threadId: string): string {
  if (typeof content === 'string') return content;
  let text = '';
  content.forEach((part, i) => {
    if (i > 0 && (part.type !== 'text' || content[i - 1]!.type !== 'text')) text += '\n';
    text += partText(part, threadId);
  });
  return text;
}

/** A stored message of `threadId` as its transcript shows it: no bytes, no metadata. */
export function transcriptMessage(message: LLMMessage, threadId: string): TranscriptMessage {
  const { role, toolCalls, toolCallId } = message;
  const calls = toolCalls?.map(({ id, name, arguments: args }) => ({ id, name, arguments: args }));
  return {
    role,
    content: contentOf(message.content, threadId),
    ...(calls === undefined || calls.length === 0 ? {} : { toolCalls: calls }),
    ...(toolCallId === undefined ? {} : { toolCallId }),
  };
}
