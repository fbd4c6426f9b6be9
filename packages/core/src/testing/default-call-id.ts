import { createHash } from 'node:crypto';
import { callIdContent } from './call-id-content.js';

/** What a default call id is made from: each message's role and content, as both wires carry them. */
export interface CallIdMessage {
  readonly role?: unknown;
  readonly content?: unknown;
}

/**
 * The id a scripted call gets when the script names none: `call_<digest>_<index>`, the digest
 * taken over the roles and contents (text, and media by their bytes or URL; see `callIdContent`)
 * of the messages the model was sent. The same conversation gives the same ids (a replay after a
 * crash sees the same calls), and a different one different ids, even when it is as long as an
 * earlier one (after a CLEAR) or differs only in an image, so ids never repeat in a thread.
 * `ScriptedLLMClient` and the testkit's OpenAI-compatible server make the same ids, with one
 * exception: a tool result's media, which the Chat Completions wire moves into a user message
 * of their own (decision 0032), so the server sees other messages than the scripted client.
 */
export function defaultCallId(messages: readonly CallIdMessage[], index: number): string {
  const hash = createHash('sha256');
  for (const message of messages) {
    // Whatever a client sent: a malformed entry counts as empty rather than failing the reply.
    const { role, content } = typeof message === 'object' && message !== null ? message : {};
    hash.update(String(role ?? ''));
    hash.update('\u0000');
    hash.update(callIdContent(content));
    hash.update('\u0001');
  }
  return `call_${hash.digest('hex').slice(0, 12)}_${index}`;
}
