import { HttpRequestError } from '@skein/http';
import { chatNotFound } from './chat-access.js';
import type { UIRun } from './ui-run.js';

/** A run of a chat in this process, and the caller it answers (none without `authorize`). */
export interface ChatRun {
  readonly run: UIRun;
  readonly principal: string | undefined;
}

/**
 * How a request holds its chat: `alone` refuses while anything else holds it (approvals, a
 * regenerate, messages with `ifBusy: 'reject'`); `shared` is a message that joins the requests
 * that hold it as `open` (messages and approvals: the engine orders them on the thread); `open`
 * is held alone but lets shared messages join.
 */
export type ChatClaim = 'alone' | 'open' | 'shared';

interface Claimed {
  readonly principal: string | undefined;
  count: number;
  /** Whether a shared message may join. */
  readonly open: boolean;
}

/** A claim held: `joined` says another request of the chat held it already. */
interface HeldClaim {
  readonly release: () => void;
  readonly joined: boolean;
}

/**
 * The chats this process runs now, with their runs' parts: what `GET …/:id/stream` replays and
 * follows, and what the stop endpoint cancels. A chat is claimed before its request is checked
 * against the store, so two requests for one chat cannot both start a run (messages that may
 * wait for a running answer share the claim: the engine queues them on the thread).
 */
export class ChatRuns {
  readonly #claimed = new Map<string, Claimed>();
  /** Each chat's runs in the order their requests came: the first not done is the one now. */
  readonly #runs = new Map<string, ChatRun[]>();

  /**
   * Claims `chatId` for one request of `principal`; refused while another request or run holds
   * it (unless both share it): 409 when it is the same caller's, 404 when another caller's (to
   * whom it is no chat).
   */
  claim(chatId: string, principal: string | undefined, how: ChatClaim = 'alone'): () => void {
    return this.hold(chatId, principal, how).release;
  }

  /** `claim`, saying whether the request joined others that hold the chat. */
  hold(chatId: string, principal: string | undefined, how: ChatClaim): HeldClaim {
    const held = this.#claimed.get(chatId);
    if (held) {
      if (held.principal !== principal) throw chatNotFound(chatId);
      if (how !== 'shared' || !held.open)
        throw new HttpRequestError(
          'CHAT_BUSY',
          `Chat ${chatId} is answering; wait for the answer (or stop it) before sending again`,
          { chatId },
        );
      held.count++;
    } else this.#claimed.set(chatId, { principal, count: 1, open: how !== 'alone' });
    let holding = true;
    const release = () => {
      if (!holding) return;
      holding = false;
      const claimed = this.#claimed.get(chatId)!;
      if (--claimed.count === 0) this.#claimed.delete(chatId);
    };
    return { release, joined: held !== undefined };
  }

  /** Records the run of a claimed chat; the claim ends with the run. */
  add(chatId: string, run: UIRun, release: () => void): void {
    const entry = { run, principal: this.#claimed.get(chatId)?.principal };
    const runs = this.#runs.get(chatId);
    if (runs) runs.push(entry);
    else this.#runs.set(chatId, [entry]);
    void run.ended.then(() => {
      const left = this.#runs.get(chatId)?.filter((e) => e !== entry) ?? [];
      if (left.length > 0) this.#runs.set(chatId, left);
      else this.#runs.delete(chatId);
      release();
    });
  }

  /** The chat's run now (the first of its runs that goes on), with the caller it answers. */
  get(chatId: string): ChatRun | undefined {
    return this.#runs.get(chatId)?.find((entry) => !entry.run.done);
  }
}
