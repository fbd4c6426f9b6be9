import { InvalidArgumentError, type LLMMessage } from '@skein/spec';

/**
 * A posted message as the JSON text the inbox keeps. The engine posts messages as the
 * conversation would store them (text, parts with base64 or URLs); anything JSON cannot carry
 * as it is (bytes, a function, a cycle) is refused here rather than changed.
 */
export function inboxJson(message: LLMMessage): string {
  let text: string;
  try {
    text = JSON.stringify(message);
  } catch (error) {
    throw new InvalidArgumentError(
      'post.message',
      `post.message is not JSON: ${(error as Error).message}`,
    );
  }
  if (JSON.stringify(JSON.parse(text)) !== text || !sameShape(message, JSON.parse(text)))
    throw new InvalidArgumentError(
      'post.message',
      'post.message must be plain JSON (media as base64 or a URL, not bytes)',
    );
  return text;
}

function sameShape(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array) return false;
  if (typeof a !== 'object' || a === null) return Object.is(a, b);
  if (typeof b !== 'object' || b === null) return false;
  const keys = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  return keys.every((k) =>
    sameShape((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}
