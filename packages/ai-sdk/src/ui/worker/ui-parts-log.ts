import type { UIChunk } from '../ui-chunk.js';
import type { LoggedPart } from './attachment-marker.js';
import type { PartsPool, PoolConnection } from './parts-pool.js';

/** A plain lower-case PostgreSQL name, quoted. */
function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A thread's run that goes on, on any chat server, and the caller it answers. */
export interface CurrentRun {
  readonly runId: string;
  readonly principal: string | undefined;
}

/**
 * The UI parts of each chat thread's current run, in two tables of the worker's schema, so that
 * any chat server replays and follows an answer that another one started: `ui_stream_runs`
 * (thread → its current run, the caller it answers, and whether it ended) and `ui_stream_parts` (run, position, part;
 * a row without a part marks the end). Each write NOTIFYs one channel with the thread id; readers
 * then read the rows after the last one they have. A thread keeps the parts of its last run only.
 */
export class UIPartsLog {
  readonly #pool: PartsPool;
  readonly #runs: string;
  readonly #parts: string;
  readonly #schema: string;
  /** The channel every write notifies (payload: the thread id). */
  readonly channel: string;
  #ready: Promise<void> | undefined;

  constructor(pool: PartsPool, schema: string) {
    this.#pool = pool;
    this.#schema = quote(schema);
    this.#runs = `${this.#schema}.ui_stream_runs`;
    this.#parts = `${this.#schema}.ui_stream_parts`;
    this.channel = `skein_ui_parts:${schema}`;
  }

  /** Creates the tables if missing (idempotent). */
  migrate(): Promise<void> {
    this.#ready ??= this.#pool
      .query(
        `create schema if not exists ${this.#schema};
         create table if not exists ${this.#runs} (
           thread_id text primary key,
           run_id text not null,
           ended boolean not null default false);
         alter table ${this.#runs} add column if not exists principal text;
         create table if not exists ${this.#parts} (
           run_id text not null,
           seq integer not null,
           part json,
           primary key (run_id, seq))`,
      )
      .then(() => undefined);
    const ready = this.#ready;
    ready.catch(() => {
      if (this.#ready === ready) this.#ready = undefined;
    });
    return ready;
  }

  /**
   * Makes `runId` the thread's current run, answering `principal` (the caller; null without
   * `authorize`); the parts of its run before are dropped.
   */
  async begin(threadId: string, runId: string, principal: string | undefined): Promise<void> {
    await this.migrate();
    await this.#pool.query(
      `with old as (
         delete from ${this.#parts} where run_id in
           (select run_id from ${this.#runs} where thread_id = $1 and run_id <> $2)
       )
       insert into ${this.#runs} (thread_id, run_id, principal) values ($1, $2, $3)
       on conflict (thread_id) do update
         set run_id = excluded.run_id, ended = false, principal = excluded.principal`,
      [threadId, runId, principal ?? null],
    );
  }

  /** Appends parts from position `seq` (a `null` part ends the run), then notifies readers. */
  async append(
    threadId: string,
    runId: string,
    seq: number,
    parts: readonly LoggedPart[],
  ): Promise<void> {
    const ends = parts.at(-1) === null;
    await this.#pool.query(
      `with added as (
         insert into ${this.#parts} (run_id, seq, part)
         select $2, $3 + i - 1, p from json_array_elements($4::json) with ordinality as t(p, i)
         returning 1
       ), ended as (
         update ${this.#runs} set ended = true where $5 and thread_id = $1 and run_id = $2
         returning 1
       )
       select pg_notify($6, $1), (select count(*) from added), (select count(*) from ended)`,
      [threadId, runId, seq, JSON.stringify(parts), ends, this.channel],
    );
  }

  /** Puts `part` in place of the run's part at `seq` (before its end is written), then notifies. */
  async replace(threadId: string, runId: string, seq: number, part: UIChunk): Promise<void> {
    await this.#pool.query(
      `with changed as (
         update ${this.#parts} set part = $4::json where run_id = $2 and seq = $3 returning 1
       )
       select pg_notify($5, $1), (select count(*) from changed)`,
      [threadId, runId, seq, JSON.stringify(part), this.channel],
    );
  }

  /** The thread's current run when it has not ended, and the caller it answers. */
  async current(threadId: string): Promise<CurrentRun | undefined> {
    await this.migrate();
    const { rows } = await this.#pool.query(
      `select run_id, principal from ${this.#runs} where thread_id = $1 and not ended`,
      [threadId],
    );
    const row = rows[0] as { run_id: string; principal: string | null } | undefined;
    return row && { runId: row.run_id, principal: row.principal ?? undefined };
  }

  /** The run's parts from position `from` on (`null` for the end). */
  async read(runId: string, from: number): Promise<LoggedPart[]> {
    const { rows } = await this.#pool.query(
      `select part from ${this.#parts} where run_id = $1 and seq >= $2 order by seq`,
      [runId, from],
    );
    return (rows as { part: LoggedPart }[]).map((row) => row.part);
  }

  /** Opens a LISTEN connection on the log's channel. */
  async listen(onThread: (threadId: string) => void): Promise<PoolConnection> {
    await this.migrate();
    const connection = await this.#pool.connect();
    connection.on('notification', (message) => {
      if (message.channel === this.channel && message.payload) onThread(message.payload);
    });
    connection.on('error', () => {});
    await connection.query(`listen ${quote(this.channel)}`);
    return connection;
  }
}
