import { type InboxPost, InvalidArgumentError, type PostedMessage } from '@skein/spec';

/**
 * `checkpoint.inboxTaken` against a thread's inbox (decision 0036): a whole number from the
 * thread's mark (it never goes back) to its last post (what was not posted cannot be taken).
 * Checked before a save writes anything.
 */
export function checkInboxTaken(
  threadId: string,
  taken: number | undefined,
  inbox: { readonly taken: number; readonly last: number },
): void {
  if (taken === undefined) return;
  if (!Number.isSafeInteger(taken) || taken < inbox.taken || taken > inbox.last)
    throw new InvalidArgumentError(
      'inboxTaken',
      `thread "${threadId}": inboxTaken must be a whole number from ${inbox.taken} (taken so far) to ${inbox.last} (the last message posted), got ${String(taken)}`,
    );
}

/** A post's fields, checked before anything is stored. */
export function checkInboxPost(post: InboxPost): void {
  if (typeof post !== 'object' || post === null)
    throw new InvalidArgumentError('post', 'post must be { id, message, mode, postedAt }');
  if (typeof post.id !== 'string' || post.id.length === 0 || post.id.length > 256)
    throw new InvalidArgumentError('post.id', 'post.id must be a string of 1 to 256 characters');
  if (post.mode !== 'queue' && post.mode !== 'steer' && post.mode !== 'interrupt')
    throw new InvalidArgumentError(
      'post.mode',
      `post.mode must be "queue", "steer" or "interrupt", got ${JSON.stringify(post.mode)}`,
    );
  if (typeof post.postedAt !== 'string' || Number.isNaN(Date.parse(post.postedAt)))
    throw new InvalidArgumentError('post.postedAt', 'post.postedAt must be an ISO 8601 time');
  if (typeof post.message !== 'object' || post.message === null)
    throw new InvalidArgumentError('post.message', 'post.message must be a message');
}

/** One thread's inbox in memory: its posts in order, by id, and how far they were taken. */
export class MemoryInbox {
  readonly #posts: PostedMessage[] = [];
  readonly #ids = new Map<string, number>();
  #taken = 0;

  get extent(): { readonly taken: number; readonly last: number } {
    return { taken: this.#taken, last: this.#posts.length };
  }

  post(post: InboxPost): { seq: number; duplicate: boolean } {
    const known = this.#ids.get(post.id);
    if (known !== undefined) return { seq: known, duplicate: true };
    const seq = this.#posts.length + 1;
    // A copy: the sender's objects may change after the post.
    this.#posts.push(structuredClone({ ...post, seq }));
    this.#ids.set(post.id, seq);
    return { seq, duplicate: false };
  }

  pending(): PostedMessage[] {
    return structuredClone(this.#posts.slice(this.#taken));
  }

  take(upTo: number | undefined): void {
    if (upTo !== undefined) this.#taken = upTo;
  }
}
