import { createHash } from 'node:crypto';

/** What a default call id is made from: each message's role and text, as both wires carry them. */
export interface CallIdMessage {
  readonly role?: unknown;
  readonly content?: unknown;
}

/**
 * The id a scripted call gets when the script names none: `call_<digest>_<index>`, the digest
 * taken over the roles and texts of the messages the model was sent. The same conversation gives
 * the same ids (a replay after a crash sees the same calls), and a different one different ids,
 * even when it is as long as an earlier one (after a CLEAR), so ids never repeat in a thread.
 * `ScriptedLLMClient` and the testkit's OpenAI-compatible server make the same ids.
 */
export function defaultCallId(messages: readonly CallIdMessage[], index: number): string {
  const hash = createHash('sha256');
  for (const message of messages) {
    // Whatever a client sent: a malformed entry counts as empty rather than failing the reply.
    const { role, content } = typeof message === 'object' && message !== null ? message : {};
    hash.update(String(role ?? ''));
    hash.update('\u0000');
    hash.update(typeof content === 'string' ? content : '');
    hash.update('\u0001');
  }
  return `call_${hash.digest('hex').slice(0, 12)}_${index}`;
}
