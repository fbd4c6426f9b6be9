import type { LLMRequest } from '@skein/spec';

const LIMIT = 200;

/** `role: "first 200 characters"` of the last message of a request, for errors. */
export function describeLastMessage(request: LLMRequest): string {
  const last = request.messages.at(-1);
  if (last === undefined) return 'no messages';
  return `${last.role}: ${JSON.stringify(last.content.slice(0, LIMIT))}`;
}
