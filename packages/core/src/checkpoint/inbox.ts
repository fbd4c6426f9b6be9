import {
  type InboxMode,
  type InboxPost,
  InvalidArgumentError,
  type LLMMessage,
  type PostedMessage,
} from '@skein/spec';

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

/**
 * A posted message as the JSON text the inbox keeps. The engine posts messages as the
 * conversation would store them (text, parts with base64 or URLs); anything JSON cannot carry
 * as it is (bytes, a function, a cycle) is refused here rather than changed.
 */
export function inboxJson(message: LLMMessage): string {
  let text: string;
  try {
    text = JSON.stringify(message);
  } catch (error) {
    throw new InvalidArgumentError(
      'post.message',
      `post.message is not JSON: ${(error as Error).message}`,
    );
  }
  if (JSON.stringify(JSON.parse(text)) !== text || !sameShape(message, JSON.parse(text)))
    throw new InvalidArgumentError(
      'post.message',
      'post.message must be plain JSON (media as base64 or a URL, not bytes)',
    );
  return text;
}

function sameShape(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array) return false;
  if (typeof a !== 'object' || a === null) return Object.is(a, b);
  if (typeof b !== 'object' || b === null) return false;
  const keys = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  return keys.every((k) =>
    sameShape((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/** A stored post as a durable store reads it back (the message as JSON text). */
export interface InboxRow {
  readonly seq: number;
  readonly id: string;
  readonly mode: string;
  readonly postedAt: string;
  readonly message: string;
}

export function postedFromRow(row: InboxRow): PostedMessage {
  return {
    seq: row.seq,
    id: row.id,
    mode: row.mode as InboxMode,
    postedAt: row.postedAt,
    message: JSON.parse(row.message) as LLMMessage,
  };
}
