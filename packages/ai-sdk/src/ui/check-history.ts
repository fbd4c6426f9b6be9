import { HttpRequestError } from '@skein/http';
import type { LLMMessage } from '@skein/spec';
import type { ClientMessage } from './chat-request.js';
import { compareUserContent } from './compare-user-content.js';

/**
 * Refuses a client whose user messages differ from the thread's stored ones (in number, text or
 * files, see `compareUserContent`): the stored conversation is the truth, and an edited history is never written over it.
 * Assistant messages are not compared: the client holds them in its own form (parts, states).
 */
export async function checkHistory(
  chatId: string,
  client: readonly ClientMessage[],
  stored: readonly LLMMessage[],
): Promise<void> {
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
    const at = `messages[${index}]`;
    const difference = await compareUserContent(message, kept.content, at);
    // The difference starts with `at`, which the mismatch puts first itself.
    if (difference !== undefined) throw mismatch(at, difference.slice(at.length + 1));
  }
  if (clientUsers.length < storedUsers.length)
    throw mismatch(
      'messages',
      `holds ${clientUsers.length} user messages, the thread ${storedUsers.length}`,
    );
}
