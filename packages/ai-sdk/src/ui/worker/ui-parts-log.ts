import type { UIChunk } from '../ui-chunk.js';
import type { LoggedPart } from './attachment-marker.js';
import type { PartsPool, PoolConnection } from './parts-pool.js';

/** A plain lower-case PostgreSQL name, quoted. */
function quote(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** A thread's run that goes on, on any chat server, and the caller it answers. */
export interface CurrentRun {
  readonly runId: string;
  readonly principal: string | undefined;
}

/**
 * The UI parts of each chat thread's runs, in two tables of the worker's schema, so that any chat
 * server replays and follows an answer that another one started: `ui_stream_thread_runs` (one row
 * per run: its thread, the caller it answers, whether it ended, and the order runs began in) and
 * `ui_stream_parts` (run, position, part; a row without a part marks the end). Each write NOTIFYs
 * one channel with the thread id; readers then read the rows after the last one they have.
 *
 * A thread may have several runs that have not ended: a message sent while an answer streams
 * begins its own run, which waits for the turn that takes it (decision 0036). A new run drops
 * the parts of the thread's runs that ended only, never of one a reader may still be following
 * (decision 0021); the thread's run now is the oldest that has not ended.
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
    this.#runs = `${this.#schema}.ui_stream_thread_runs`;
    this.#parts = `${this.#schema}.ui_stream_parts`;
    this.channel = `skein_ui_parts:${schema}`;
  }

  /**
   * Creates the tables if missing (idempotent). A database made before runs were kept per run
   * has `ui_stream_runs` (one row per thread, with or without its `principal` column): its rows
   * move to the new table, and it is dropped.
   */
  migrate(): Promise<void> {
    const old = `${this.#schema}.ui_stream_runs`;
    this.#ready ??= this.#pool
      .query(
        `create schema if not exists ${this.#schema};
         create table if not exists ${this.#runs} (
           run_id text primary key,
           thread_id text not null,
           principal text,
           ended boolean not null default false,
           began bigint generated always as identity);
         create index if not exists ui_stream_thread_runs_thread
           on ${this.#runs} (thread_id, began);
         create table if not exists ${this.#parts} (
           run_id text not null,
           seq integer not null,
           part json,
           primary key (run_id, seq));
         do $$ begin
           if to_regclass(${literal(old)}) is not null then
             insert into ${this.#runs} (run_id, thread_id, principal, ended)
               select run_id, thread_id, to_jsonb(o) ->> 'principal', ended from ${old} o
               on conflict (run_id) do nothing;
             drop table ${old};
           end if;
         end $$`,
      )
      .then(() => undefined);
    const ready = this.#ready;
    ready.catch(() => {
      if (this.#ready === ready) this.#ready = undefined;
    });
    return ready;
  }

  /**
   * Makes `runId` a run of the thread, answering `principal` (the caller; null without
   * `authorize`). The parts of the thread's runs that ended are dropped; runs that go on keep
   * theirs, so their readers get them whole.
   */
  async begin(threadId: string, runId: string, principal: string | undefined): Promise<void> {
    await this.migrate();
    await this.#pool.query(
      `with old as (
         delete from ${this.#runs} where thread_id = $1 and ended and run_id <> $2
         returning run_id
       ), gone as (
         delete from ${this.#parts} where run_id in (select run_id from old)
       )
       insert into ${this.#runs} (run_id, thread_id, principal) values ($2, $1, $3)
       on conflict (run_id) do update set ended = false, principal = excluded.principal`,
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
         update ${this.#runs} set ended = true where $5 and run_id = $2
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

  /**
   * The thread's run now, and the caller it answers: the oldest of its runs that has not ended
   * (the answer streaming now; later ones wait for the turns that take their messages).
   */
  async current(threadId: string): Promise<CurrentRun | undefined> {
    await this.migrate();
    const { rows } = await this.#pool.query(
      `select run_id, principal from ${this.#runs} where thread_id = $1 and not ended
       order by began limit 1`,
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
