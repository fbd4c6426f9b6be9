/** One step of the schema's history: the SQL taking version `version - 1` to `version`. */
export interface Migration {
  readonly version: number;
  readonly description: string;
  /** The statements, given the quoted schema name (`"skein"`). */
  readonly sql: (schema: string) => string;
}

/**
 * The schema's history, oldest first. Append only: a released migration never changes, since
 * databases in the field were made by it. Versions run 1, 2, 3…; each applied one is a row of
 * `<schema>.migrations`.
 *
 * JSON goes into `text` columns, not `jsonb`: jsonb reorders keys, drops duplicate ones, refuses
 * `\u0000` and turns `-0` into `0`, and a resumed thread must see exactly what was saved.
 * Messages and log entries are rows of their own, written once; a checkpoint row holds the state
 * and how many of them it covers, so a save at step 10,000 writes what a save at step 10 writes.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'threads, checkpoints, messages and log entries (incremental checkpoints)',
    sql: (s) => `
      CREATE TABLE ${s}.threads (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        thread_id text NOT NULL UNIQUE,
        workflow_id text NOT NULL,
        workflow_version text NOT NULL,
        status text NOT NULL,
        step bigint NOT NULL,
        updated_at text NOT NULL,
        last_checkpoint_id text NOT NULL,
        checkpoint_count bigint NOT NULL,
        message_count bigint NOT NULL,
        log_count bigint NOT NULL
      );
      CREATE TABLE ${s}.checkpoints (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        thread bigint NOT NULL REFERENCES ${s}.threads (id) ON DELETE CASCADE,
        checkpoint_id text NOT NULL,
        sequence bigint NOT NULL,
        parent_id text,
        created_at text NOT NULL,
        status text NOT NULL,
        step bigint NOT NULL,
        current_node_id text,
        message_count bigint NOT NULL,
        log_count bigint NOT NULL,
        state text NOT NULL
      );
      CREATE INDEX checkpoints_by_thread ON ${s}.checkpoints (thread, id);
      CREATE INDEX checkpoints_by_name ON ${s}.checkpoints (thread, checkpoint_id);
      CREATE TABLE ${s}.messages (
        thread bigint NOT NULL REFERENCES ${s}.threads (id) ON DELETE CASCADE,
        position bigint NOT NULL,
        body text NOT NULL,
        PRIMARY KEY (thread, position)
      );
      CREATE TABLE ${s}.log_entries (
        thread bigint NOT NULL REFERENCES ${s}.threads (id) ON DELETE CASCADE,
        position bigint NOT NULL,
        body text NOT NULL,
        PRIMARY KEY (thread, position)
      );
    `,
  },
  {
    version: 2,
    description: 'thread leases: which process runs a thread, and until when',
    // A table of its own, keyed by the thread id's text: a lease is taken before the thread's
    // first checkpoint, when no threads row (which needs a workflow and a head) exists yet, and a
    // renewal then rewrites this narrow row rather than the thread's. expires_at is double
    // precision, not bigint: the contract takes any finite number of epoch ms, and a bigint
    // column would refuse a fractional one (now + ttl * 0.8) with a database error; every JS
    // number, epoch ms up to 2^53 included, is kept and compared exactly.
    sql: (s) => `
      CREATE TABLE ${s}.leases (
        thread_id text PRIMARY KEY,
        owner text NOT NULL,
        expires_at double precision NOT NULL
      );
    `,
  },
];

/** The schema version this package writes. */
export const SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
