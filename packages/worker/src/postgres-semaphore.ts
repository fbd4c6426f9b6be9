import type pg from 'pg';
import { databaseError } from './database-errors.js';
import { ConcurrencySlotTimeoutError } from './errors/concurrency-slot-timeout-error.js';
import type { ListenConnection } from './listen-connection.js';
import { slotChannel } from './sql-names.js';

/** A slot taken: give it back exactly once. */
export interface Slot {
  release(): Promise<void>;
}

export interface SemaphoreOptions {
  readonly pool: pg.Pool;
  readonly listener: ListenConnection;
  readonly key: string;
  readonly max: number;
  readonly waitTimeoutMs: number;
  /**
   * Waiters wake on NOTIFY when a slot is given back; a holder that died gives none, so waiters
   * also try again after this long.
   */
  readonly retryMs: number;
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new Error('aborted');
}

/**
 * `max` slots shared by every process on the database: slot i is the session advisory lock
 * (hashtext(key), i), held on a connection for as long as the slot is. A process that dies frees
 * its slots with its connections.
 */
export class PostgresSemaphore {
  readonly #options: SemaphoreOptions;
  readonly #channel: string;

  constructor(options: SemaphoreOptions) {
    this.#options = options;
    this.#channel = slotChannel(options.key);
  }

  async #tryTake(): Promise<Slot | undefined> {
    try {
      return await this.#take();
    } catch (error) {
      throw databaseError(error, `take a slot of concurrency limit "${this.#options.key}"`);
    }
  }

  async #take(): Promise<Slot | undefined> {
    const { pool, key, max } = this.#options;
    const client = await pool.connect();
    // A slot is held idle while the model runs: a connection dropped meanwhile emits 'error' on
    // it, which must not go unheard (the process would exit). The slot went with it.
    const onError = (): void => {};
    client.on('error', onError);
    let slot: number | undefined;
    try {
      // Slots are tried from a random start so waiters spread over them; the first free one wins.
      const start = Math.floor(Math.random() * max);
      const { rows } = await client.query<{ slot: number }>(
        `select s as slot from (
           select (i + $3) % $2 as s from generate_series(0, $2 - 1) i offset 0) c
          where pg_try_advisory_lock(hashtext($1), s) limit 1`,
        [key, max, start],
      );
      slot = rows[0]?.slot;
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      throw error;
    }
    if (slot === undefined) {
      client.off('error', onError);
      client.release();
      return undefined;
    }
    const taken = slot;
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        try {
          await client.query('select pg_advisory_unlock(hashtext($1), $2), pg_notify($3, $4)', [
            key,
            taken,
            this.#channel,
            '',
          ]);
          client.off('error', onError);
          client.release();
        } catch (error) {
          client.release(error instanceof Error ? error : true);
        }
      },
    };
  }

  /** Waits for a free slot (or rejects: timeout, abort). */
  async acquire(signal?: AbortSignal): Promise<Slot> {
    const { listener, waitTimeoutMs, retryMs, key, max } = this.#options;
    if (signal?.aborted) throw abortError(signal);
    const first = await this.#tryTake();
    if (first) return first;
    const started = performance.now();
    let wake: (() => void) | undefined;
    const unlisten = await listener
      .listen(this.#channel, () => wake?.())
      .catch((error: unknown) => {
        throw databaseError(error, `wait for a slot of concurrency limit "${key}"`);
      });
    try {
      for (;;) {
        // An abort while the slot was asked for finds no listener yet: look before every wait.
        if (signal?.aborted) throw abortError(signal);
        const slot = await this.#tryTake();
        if (slot) return slot;
        const left = waitTimeoutMs - (performance.now() - started);
        if (left <= 0) throw new ConcurrencySlotTimeoutError(key, max, Math.round(waitTimeoutMs));
        await new Promise<void>((resolve, reject) => {
          const timer = setTimeout(done, Math.min(retryMs, left));
          function done(): void {
            clearTimeout(timer);
            signal?.removeEventListener('abort', aborted);
            wake = undefined;
            resolve();
          }
          function aborted(): void {
            done();
            reject(abortError(signal!));
          }
          wake = done;
          signal?.addEventListener('abort', aborted, { once: true });
        });
      }
    } finally {
      await unlisten();
    }
  }
}
