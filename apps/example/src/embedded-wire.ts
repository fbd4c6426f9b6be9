import type { OpenAIServerQuirks } from '@skein/testkit';

// What the embedded model reads of an OpenAI Chat Completions request, and small helpers to
// answer it.

export interface WireMessage {
  role: string;
  content?: string | null;
  tool_calls?: { id?: string; function: { name: string } }[];
  tool_call_id?: string;
}

export interface WireBody {
  messages: WireMessage[];
  tools?: { function: { name: string } }[];
}

function lastUserIndex(messages: readonly WireMessage[]): number {
  return messages.map((m) => m.role).lastIndexOf('user');
}

export function lastUserText(messages: readonly WireMessage[]): string {
  return messages[lastUserIndex(messages)]?.content ?? '';
}

export function toolResultsSinceLastUser(messages: readonly WireMessage[]): WireMessage[] {
  return messages.slice(lastUserIndex(messages) + 1).filter((m) => m.role === 'tool');
}

/** The result of the call to `name` since the last user message, matched by call id. */
export function resultOf(messages: readonly WireMessage[], name: string): string | undefined {
  const recent = messages.slice(lastUserIndex(messages) + 1);
  const ids = recent.flatMap((m) =>
    (m.tool_calls ?? []).filter((c) => c.function.name === name).map((c) => c.id),
  );
  return (
    recent.find((m) => m.role === 'tool' && ids.includes(m.tool_call_id))?.content ?? undefined
  );
}

export function call(name: string, args: Record<string, unknown>) {
  return { name, arguments: JSON.stringify(args) };
}

export const LATE_IDS: OpenAIServerQuirks = { idOnLaterChunk: true };
export const NO_INDEX: OpenAIServerQuirks = { noIndex: true, repeatIdAndName: true };
