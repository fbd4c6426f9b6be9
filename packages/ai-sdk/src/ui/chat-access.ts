import type { PrincipalEngine, SkeinEngine, ThreadContext } from '@skein/core';
import { HttpRequestError } from '@skein/http';

/** What a chat request does to threads: the engine, or the caller's view of it. */
type ChatThreadAccess = Pick<
  SkeinEngine | PrincipalEngine,
  'send' | 'claimResume' | 'loadThread' | 'run'
>;

/** Who sent a chat request: its principal (none without `authorize`) and what it may reach. */
export interface ChatCaller {
  readonly principal: string | undefined;
  readonly threads: ChatThreadAccess;
}

/** The caller of a request: the engine itself without a principal, else the principal's view. */
export function chatCaller(engine: SkeinEngine, principal: string | undefined): ChatCaller {
  return {
    principal,
    threads: principal === undefined ? engine : engine.forPrincipal(principal),
  };
}

/** The chat is no chat of the caller's (404), whether nobody's or another caller's. */
export function chatNotFound(chatId: string): HttpRequestError<'CHAT_NOT_FOUND'> {
  return new HttpRequestError('CHAT_NOT_FOUND', `Chat ${chatId} has no stored thread`, { chatId });
}

/**
 * Refuses a chat that belongs to someone else than `principal` (404 `CHAT_NOT_FOUND`, as a chat
 * that is not there): its stored thread is of another principal or of none (a thread made before
 * `authorize`), or, before it is stored, a run of this server or another answers another caller
 * (`holder`: that run's principal). A free chat id (no thread, no run) is the caller's to start.
 * Without `authorize` (`principal` undefined) every chat is everyone's, as before.
 */
export function checkChatOwner(
  chatId: string,
  principal: string | undefined,
  thread: ThreadContext | undefined,
  running?: { readonly principal: string | undefined },
): void {
  if (principal === undefined) return;
  if (thread ? thread.state.principal !== principal : running && running.principal !== principal)
    throw chatNotFound(chatId);
}
