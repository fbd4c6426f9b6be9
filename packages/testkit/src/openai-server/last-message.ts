import { wireContentText } from './wire-content-text.js';

const LIMIT = 200;

/** What a content part is called in an error: its text, or its wire type (`[image_url]`). */
function described(content: unknown[]): string {
  return content
    .map((part) => {
      const type = (part as { type?: unknown } | null)?.type;
      return type === 'text' ? wireContentText([part]) : `[${String(type)}]`;
    })
    .join(' ');
}

/** `role: "first 200 characters"` of the last message of a Chat Completions body, for errors. */
export function describeLastMessage(body: unknown): string {
  const messages = (body as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages) || messages.length === 0) return 'no messages';
  const last = messages.at(-1) as { role?: unknown; content?: unknown; tool_calls?: unknown };
  // Parts are named by type: a data URL's base64 would fill the 200 characters and say nothing.
  const content =
    typeof last.content === 'string'
      ? last.content
      : Array.isArray(last.content)
        ? described(last.content)
        : JSON.stringify(last.content ?? last.tool_calls ?? null);
  return `${String(last.role)}: ${JSON.stringify(content.slice(0, LIMIT))}`;
}
