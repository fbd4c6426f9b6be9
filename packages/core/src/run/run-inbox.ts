import type { LLMMessage, PostedMessage } from '@skein/spec';
import type { ThreadInbox } from '../nodes/node-handler.js';
import type { ThreadContext } from '../thread/thread-context.js';

/** What a run reads of its thread's inbox: the store's `pendingMessages`. */
export interface InboxReader {
  pendingMessages(threadId: string): Promise<PostedMessage[]>;
}

/** The message a posted one stands for in the conversation: marked with its inbox `seq` and id. */
export function inboxMessage(posted: PostedMessage): LLMMessage {
  return {
    ...posted.message,
    metadata: { ...posted.message.metadata, inbox: posted.seq, inboxId: posted.id },
  };
}

/**
 * A top-level thread's inbox during one run (decision 0036). Before each model call, the `steer`
 * messages waiting (and any posted before them, so order holds) join the conversation and the
 * thread's `inboxTaken` moves with them: the checkpoint that stores the node stores both, and a
 * node undone takes both back, so a message is in the conversation once or still pending. An
 * `interrupt` waiting stops the run there, with its finished rounds kept; between nodes only
 * an interrupt this process posted is looked for (`rung`), as reading the store after every
 * node would cost every thread a read per node.
 */
export class RunInbox implements ThreadInbox {
  readonly #store: InboxReader;
  readonly #thread: ThreadContext;
  readonly #rung: () => boolean;
  /** An interrupt stopped the run. */
  interrupted = false;

  constructor(store: InboxReader, thread: ThreadContext, rung: () => boolean) {
    this.#store = store;
    this.#thread = thread;
    this.#rung = rung;
  }

  async beforeModelCall(): Promise<boolean> {
    const pending = await this.#pending();
    if (pending.some((p) => p.mode === 'interrupt')) {
      this.interrupted = true;
      return true;
    }
    let last = -1;
    for (let i = 0; i < pending.length; i++) if (pending[i]!.mode === 'steer') last = i;
    if (last < 0) return false;
    const joining = pending.slice(0, last + 1);
    for (const posted of joining) this.#thread.conversation.addMessage(inboxMessage(posted));
    this.#thread.dispatch({ type: 'inbox-taken', seq: joining.at(-1)!.seq });
    return false;
  }

  /** Whether this process posted an interrupt for the thread: between nodes, only then is the store read. */
  get rung(): boolean {
    return this.#rung();
  }

  /** Between nodes, when `rung`: whether an interrupt waits in the store. */
  async interruptWaits(): Promise<boolean> {
    const pending = await this.#pending();
    this.interrupted = pending.some((p) => p.mode === 'interrupt');
    return this.interrupted;
  }

  /** Pending in the store and not already taken by this run (its mark is saved with the node). */
  async #pending(): Promise<PostedMessage[]> {
    const taken = this.#thread.state.inboxTaken ?? 0;
    return (await this.#store.pendingMessages(this.#thread.threadId)).filter((p) => p.seq > taken);
  }
}
