import { HttpRequestError } from '@skein/http';
import type { UIRun } from './ui-run.js';

/**
 * The chats this process runs now, with their runs' parts: what `GET …/:id/stream` replays and
 * follows, and what the stop endpoint cancels. A chat is claimed before its request is checked
 * against the store, so two requests for one chat cannot both start a run.
 */
export class ChatRuns {
  readonly #claimed = new Set<string>();
  readonly #runs = new Map<string, UIRun>();

  /** Claims `chatId` for one request; refused (409) while another request or run holds it. */
  claim(chatId: string): () => void {
    if (this.#claimed.has(chatId))
      throw new HttpRequestError(
        'CHAT_BUSY',
        `Chat ${chatId} is answering; wait for the answer (or stop it) before sending again`,
        { chatId },
      );
    this.#claimed.add(chatId);
    return () => this.#claimed.delete(chatId);
  }

  /** Records the run of a claimed chat; the claim ends with the run. */
  add(chatId: string, run: UIRun, release: () => void): void {
    this.#runs.set(chatId, run);
    void run.ended.then(() => {
      if (this.#runs.get(chatId) === run) this.#runs.delete(chatId);
      release();
    });
  }

  /** The chat's run while it goes on. */
  get(chatId: string): UIRun | undefined {
    const run = this.#runs.get(chatId);
    return run && !run.done ? run : undefined;
  }
}
