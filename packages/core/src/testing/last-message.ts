import { contentText, type LLMRequest } from '@skein/spec';

const LIMIT = 200;

/**
 * `role: "first 200 characters"` of the last message of a request, for errors; its media parts
 * are counted, never printed (their base64 would fill the message).
 */
export function describeLastMessage(request: LLMRequest): string {
  const last = request.messages.at(-1);
  if (last === undefined) return 'no messages';
  const text = JSON.stringify(contentText(last.content).slice(0, LIMIT));
  const media =
    typeof last.content === 'string' ? 0 : last.content.filter((p) => p.type !== 'text').length;
  return `${last.role}: ${text}${media > 0 ? ` (and ${media} media part${media > 1 ? 's' : ''})` : ''}`;
}
