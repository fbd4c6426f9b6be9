import { HttpRequestError } from '@skein/http';
import type { LLMMessage } from '@skein/spec';
import { type ClientMessage, textOf } from './chat-request.js';

/**
 * Refuses a client whose user messages differ from the thread's stored ones (in number or in
 * text): the stored conversation is the truth, and an edited history is never written over it.
 * Assistant messages are not compared: the client holds them in its own form (parts, states).
 */
export function checkHistory(
  chatId: string,
  client: readonly ClientMessage[],
  stored: readonly LLMMessage[],
): void {
  const storedUsers = stored.filter((m) => m.role === 'user');
  const clientUsers = client
    .map((message, index) => ({ message, index }))
    .filter(({ message }) => message.role === 'user');
  const mismatch = (field: string, problem: string) =>
    new HttpRequestError(
      'HISTORY_MISMATCH',
      `Chat ${chatId}: ${field} ${problem}; the thread's stored conversation is the truth (load it again, or start a new chat)`,
      { chatId, field },
    );
  for (let i = 0; i < clientUsers.length; i++) {
    const { message, index } = clientUsers[i]!;
    const kept = storedUsers[i];
    if (kept === undefined)
      throw mismatch(`messages[${index}]`, 'is a user message the thread does not have');
    if (textOf(message) !== kept.content)
      throw mismatch(`messages[${index}]`, 'differs from the stored user message');
  }
  if (clientUsers.length < storedUsers.length)
    throw mismatch(
      'messages',
      `holds ${clientUsers.length} user messages, the thread ${storedUsers.length}`,
    );
}
