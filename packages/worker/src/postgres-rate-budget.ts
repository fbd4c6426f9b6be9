import type { RateBudget } from '@skein/spec';
import { abortedBy, sleep } from './abortable-sleep.js';
import {
  type ConnectionOptions,
  type QueueOptions,
  type ResolvedQueue,
  resolveQueue,
} from './connection-options.js';
import { onDatabase } from './database-errors.js';
import { WorkerClosedError } from './errors/worker-closed-error.js';
import { WorkerOptionError } from './errors/worker-option-error.js';
import { quoteIdentifier } from './sql-names.js';
import { migrateWorkerSchema } from './worker-schema.js';

export type RateBudgetOptions = ConnectionOptions &
  Pick<QueueOptions, 'schema' | 'log'> & {
    /** Names the budget: every process drawing on the same name on the same database shares it. */
    readonly name: string;
    /** Requests per minute across every process drawing on the budget. */
    readonly rpm?: number;
    /** Tokens (prompt + completion) per minute across every process drawing on the budget. */
    readonly tpm?: number;
    /**
     * Seconds of budget that may be spent at once after an idle spell (default 10): a bucket holds
     * `rpm * burstSeconds / 60` requests (at least one). Lower is smoother, higher starts faster.
     */
    readonly burstSeconds?: number;
  };

/** A bucket's refill rate (per minute) and capacity, or none: that limit is not kept. */
interface Bucket {
  readonly rate: number;
  readonly capacity: number;
}

function checkRate(option: string, value: number | undefined): void {
  if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0))
    throw new WorkerOptionError(option, value, 'a positive number');
}

function bucketOf(perMinute: number | undefined, burstSeconds: number): Bucket | undefined {
  if (perMinute === undefined) return undefined;
  return { rate: perMinute, capacity: Math.max(1, (perMinute * burstSeconds) / 60) };
}

/**
 * A `RateBudget` kept in PostgreSQL, so that every process and machine drawing on the same `name`
 * keeps together to one provider account's requests and tokens per minute, and a 429 met by any
 * of them pauses all of them. Each draw is one call of a database function that refills the
 * buckets by the database's own clock, takes if the request fits and otherwise says how long to
 * wait; the caller sleeps that long and tries again. Within a process, waiters take turns (first
 * come, first served) so only one of them asks the database at a time. Give every process the
 * same limits for a name: each draw refills by the limits of whoever draws.
 */
export class PostgresRateBudget implements RateBudget {
  readonly name: string;
  readonly #queue: ResolvedQueue;
  readonly #requests: Bucket | undefined;
  readonly #tokens: Bucket | undefined;
  readonly #closing = new AbortController();
  #turns: Promise<void> = Promise.resolve();
  #ready: Promise<void> | undefined;

  constructor(options: RateBudgetOptions) {
    if (typeof options !== 'object' || options === null)
      throw new WorkerOptionError('options', options, 'an object');
    const { name, rpm, tpm } = options;
    if (typeof name !== 'string' || name === '' || name.length > 200)
      throw new WorkerOptionError(
        'name',
        name,
        'a non-empty string naming the budget (at most 200 characters)',
      );
    checkRate('rpm', rpm);
    checkRate('tpm', tpm);
    checkRate('burstSeconds', options.burstSeconds);
    const burstSeconds = options.burstSeconds ?? 10;
    this.name = name;
    this.#requests = bucketOf(rpm, burstSeconds);
    this.#tokens = bucketOf(tpm, burstSeconds);
    // One connection for the waiter whose turn it is, and room for settles and pauses meanwhile.
    this.#queue = resolveQueue(options, 3);
  }

  /** Creates the worker's tables and the budget function if missing (idempotent, concurrent-safe). */
  migrate(): Promise<void> {
    this.#ready ??= onDatabase('migrate the rate budgets', () =>
      migrateWorkerSchema(this.#queue.pool, this.#queue.schema),
    );
    const ready = this.#ready;
    ready.catch(() => {
      if (this.#ready === ready) this.#ready = undefined;
    });
    return ready;
  }

  acquire(tokens: number, signal?: AbortSignal): Promise<void> {
    if (this.#closing.signal.aborted)
      return Promise.reject(new WorkerClosedError('draw on a rate budget'));
    const turn = this.#turns.then(() => this.#wait(tokens, signal));
    // The next waiter takes its turn whether this one succeeded, failed or was aborted.
    this.#turns = turn.catch(() => undefined);
    return turn;
  }

  async settle(estimatedTokens: number, actualTokens: number): Promise<void> {
    const difference = actualTokens - estimatedTokens;
    if (!this.#tokens || !Number.isFinite(difference) || difference === 0) return;
    if (this.#closing.signal.aborted) throw new WorkerClosedError('settle a rate budget');
    await this.migrate();
    await this.#draw(0, difference, true);
  }

  async pauseFor(ms: number): Promise<void> {
    if (!(Number.isFinite(ms) && ms > 0)) return;
    if (this.#closing.signal.aborted) throw new WorkerClosedError('pause a rate budget');
    await this.migrate();
    const table = `${quoteIdentifier(this.#queue.schema)}.rate_budgets`;
    // Never shortens a longer pause another process already set.
    await onDatabase(`pause rate budget "${this.name}"`, () =>
      this.#queue.pool.query(
        `insert into ${table} as b (name, paused_until)
         values ($1, clock_timestamp() + $2 * interval '1 millisecond')
         on conflict (name) do update set paused_until = greatest(b.paused_until, excluded.paused_until)`,
        [this.name, ms],
      ),
    );
  }

  /** Stops waiting draws (they reject with `WorkerClosedError`) and frees the connections. */
  async close(): Promise<void> {
    if (this.#closing.signal.aborted) return;
    this.#closing.abort(new WorkerClosedError('wait for a rate budget'));
    await this.#turns;
    if (this.#queue.ownsPool) await this.#queue.pool.end();
  }

  async #wait(tokens: number, signal: AbortSignal | undefined): Promise<void> {
    const signals = signal ? [signal, this.#closing.signal] : [this.#closing.signal];
    const amount = Number.isFinite(tokens) && tokens > 0 ? tokens : 0;
    const check = (): void => {
      const aborted = abortedBy(signals);
      if (aborted) throw aborted.reason;
    };
    check();
    await this.migrate();
    for (;;) {
      check();
      const wait = await this.#draw(1, amount, false);
      if (wait <= 0) return;
      await sleep(Math.ceil(wait), signals);
    }
  }

  /** One call of the budget function: milliseconds to wait, 0 when taken. */
  async #draw(requests: number, tokens: number, force: boolean): Promise<number> {
    const { rows } = await onDatabase(`draw on rate budget "${this.name}"`, () =>
      this.#queue.pool.query<{ wait: number }>(
        `select ${quoteIdentifier(this.#queue.schema)}.draw_rate_budget($1, $2, $3, $4, $5, $6, $7, $8) as wait`,
        [
          this.name,
          this.#requests?.rate ?? null,
          this.#requests?.capacity ?? null,
          this.#tokens?.rate ?? null,
          this.#tokens?.capacity ?? null,
          requests,
          tokens,
          force,
        ],
      ),
    );
    return Number(rows[0]?.wait ?? 0);
  }
}

/** A fleet-wide `RateBudget` on PostgreSQL; bad options throw `WorkerOptionError` before connecting. */
export function createRateBudget(options: RateBudgetOptions): PostgresRateBudget {
  return new PostgresRateBudget(options);
}
