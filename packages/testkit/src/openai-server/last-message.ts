const LIMIT = 200;

/** `role: "first 200 characters"` of the last message of a Chat Completions body, for errors. */
export function describeLastMessage(body: unknown): string {
  const messages = (body as { messages?: unknown } | null)?.messages;
  if (!Array.isArray(messages) || messages.length === 0) return 'no messages';
  const last = messages.at(-1) as { role?: unknown; content?: unknown; tool_calls?: unknown };
  const content =
    typeof last.content === 'string'
      ? last.content
      : JSON.stringify(last.content ?? last.tool_calls ?? null);
  return `${String(last.role)}: ${JSON.stringify(content.slice(0, LIMIT))}`;
}
