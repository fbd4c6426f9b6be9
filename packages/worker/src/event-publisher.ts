import type pg from 'pg';
import { encodeEvent } from './encode-event.js';
import { threadChannel } from './sql-names.js';

/**
 * Sends engine events to other processes with NOTIFY, one statement per turn of the event loop
 * however many events the turn produced (a node emits several), so a busy worker pays one round
 * trip per batch rather than per event. Order is kept: batches go out one after another.
 */
export class EventPublisher {
  readonly #pool: pg.Pool;
  readonly #schema: string;
  readonly #onError: (error: unknown) => void;
  #channels: string[] = [];
  #payloads: string[] = [];
  #scheduled = false;
  #sending: Promise<void> = Promise.resolve();

  constructor(pool: pg.Pool, schema: string, onError: (error: unknown) => void) {
    this.#pool = pool;
    this.#schema = schema;
    this.#onError = onError;
  }

  publish(threadId: string, event: string, data: object): void {
    this.#channels.push(threadChannel(this.#schema, threadId));
    this.#payloads.push(encodeEvent(event, data));
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#scheduled = false;
    const channels = this.#channels;
    const payloads = this.#payloads;
    this.#channels = [];
    this.#payloads = [];
    this.#sending = this.#sending.then(() =>
      this.#pool
        .query(
          // WITH ORDINALITY + ORDER BY: notifications go out in the order they were emitted.
          'select pg_notify(c, p) from unnest($1::text[], $2::text[]) with ordinality as t(c, p, i) order by i',
          [channels, payloads],
        )
        .then(
          () => {},
          (error: unknown) => this.#onError(error),
        ),
    );
  }

  /** Resolves when every event published so far has been sent (or failed). */
  async drain(): Promise<void> {
    if (this.#scheduled) this.#flush();
    await this.#sending;
  }
}
