import { HttpRequestError } from '@skein/http';
import { chatNotFound } from './chat-access.js';
import type { UIRun } from './ui-run.js';

/** A run of a chat in this process, and the caller it answers (none without `authorize`). */
export interface ChatRun {
  readonly run: UIRun;
  readonly principal: string | undefined;
}

/**
 * The chats this process runs now, with their runs' parts: what `GET …/:id/stream` replays and
 * follows, and what the stop endpoint cancels. A chat is claimed before its request is checked
 * against the store, so two requests for one chat cannot both start a run.
 */
export class ChatRuns {
  readonly #claimed = new Map<string, string | undefined>();
  readonly #runs = new Map<string, ChatRun>();

  /**
   * Claims `chatId` for one request of `principal`; refused while another request or run holds
   * it: 409 when it is the same caller's, 404 when another caller's (to whom it is no chat).
   */
  claim(chatId: string, principal: string | undefined): () => void {
    if (this.#claimed.has(chatId)) {
      if (this.#claimed.get(chatId) !== principal) throw chatNotFound(chatId);
      throw new HttpRequestError(
        'CHAT_BUSY',
        `Chat ${chatId} is answering; wait for the answer (or stop it) before sending again`,
        { chatId },
      );
    }
    this.#claimed.set(chatId, principal);
    return () => this.#claimed.delete(chatId);
  }

  /** Records the run of a claimed chat; the claim ends with the run. */
  add(chatId: string, run: UIRun, release: () => void): void {
    const entry = { run, principal: this.#claimed.get(chatId) };
    this.#runs.set(chatId, entry);
    void run.ended.then(() => {
      if (this.#runs.get(chatId) === entry) this.#runs.delete(chatId);
      release();
    });
  }

  /** The chat's run while it goes on, with the caller it answers. */
  get(chatId: string): ChatRun | undefined {
    const entry = this.#runs.get(chatId);
    return entry && !entry.run.done ? entry : undefined;
  }
}
