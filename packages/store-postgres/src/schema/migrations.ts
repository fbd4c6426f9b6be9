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
  {
    version: 3,
    description:
      'forks: a thread shares the start of its conversation with the thread it came from; wakes and event waits are indexed',
    // A fork's own rows start at base_messages / base_log; the positions before are read from
    // thread `base` (itself maybe a fork), so forking a long thread writes no copy of it. The
    // counts stay the full ones. No cascade on `base`: a thread with forks is deleted only after
    // its rows the forks need were handed to them, and the key refuses any delete that did not.
    // Constant defaults and a nullable column: no table rewrite, whatever the table holds.
    // wake_at is the latest checkpoint's wake (epoch ms, as leases keep time) and waits_for the
    // event it waits for, filled here for threads already waiting from their state (what the
    // engine's wakeOf and eventWaitOf read).
    sql: (s) => `
      ALTER TABLE ${s}.threads
        ADD COLUMN base bigint REFERENCES ${s}.threads (id),
        ADD COLUMN base_messages bigint NOT NULL DEFAULT 0,
        ADD COLUMN base_log bigint NOT NULL DEFAULT 0;
      CREATE INDEX threads_by_base ON ${s}.threads (base) WHERE base IS NOT NULL;
      ALTER TABLE ${s}.threads ADD COLUMN wake_at double precision;
      CREATE INDEX threads_by_wake ON ${s}.threads (wake_at) WHERE wake_at IS NOT NULL;
      UPDATE ${s}.threads t SET wake_at = extract(epoch FROM (CASE
          WHEN latest.pending -> 'answer' IS NOT NULL THEN NULL
          WHEN latest.pending ->> 'kind' = 'sleep' THEN latest.pending ->> 'wakeAt'
          ELSE latest.pending ->> 'deadline'
        END)::timestamptz) * 1000
      FROM (
        SELECT DISTINCT ON (c.thread) c.thread, c.state::json -> 'pending' AS pending
        FROM ${s}.checkpoints c JOIN ${s}.threads w ON w.id = c.thread
        WHERE w.status IN ('PAUSED', 'WAITING')
        ORDER BY c.thread, c.id DESC) AS latest
      WHERE t.id = latest.thread AND latest.pending IS NOT NULL;
      ALTER TABLE ${s}.threads ADD COLUMN waits_for text;
      CREATE INDEX threads_by_event ON ${s}.threads (waits_for) WHERE waits_for IS NOT NULL;
      UPDATE ${s}.threads t SET waits_for = latest.pending ->> 'event'
      FROM (
        SELECT DISTINCT ON (c.thread) c.thread, c.state::json -> 'pending' AS pending
        FROM ${s}.checkpoints c JOIN ${s}.threads w ON w.id = c.thread
        WHERE w.status = 'WAITING'
        ORDER BY c.thread, c.id DESC) AS latest
      WHERE t.id = latest.thread AND latest.pending ->> 'kind' = 'event'
        AND latest.pending -> 'answer' IS NULL;
    `,
  },
  {
    version: 4,
    description:
      'attachments: media bytes once per schema by digest, and the threads that use them',
    // A message's inline image, audio or file is written once, keyed by its SHA-256, and the
    // message row holds a ref (decision 0033): loading a thread reads no bytes, and a thread
    // showing one image in fifty batches holds it once. attachment_uses says which threads may
    // read an attachment (from which message position first: a fork inherits the uses below its
    // fork point); uses go with their thread, and an attachment with its last use. The key from
    // a use to its attachment is what keeps a delete of an attachment that looked unused from
    // racing a save that is using it again: the delete fails, and the attachment stays. Rows
    // written before this version keep their bytes inline, and load as they did.
    sql: (s) => `
      CREATE TABLE ${s}.attachments (
        digest text PRIMARY KEY,
        media_type text NOT NULL,
        size bigint NOT NULL,
        width integer,
        height integer,
        bytes bytea NOT NULL
      );
      CREATE TABLE ${s}.attachment_uses (
        thread bigint NOT NULL REFERENCES ${s}.threads (id) ON DELETE CASCADE,
        digest text NOT NULL REFERENCES ${s}.attachments (digest),
        position bigint NOT NULL,
        PRIMARY KEY (thread, digest)
      );
      CREATE INDEX attachment_uses_by_digest ON ${s}.attachment_uses (digest);
    `,
  },
  {
    version: 5,
    description: 'inbox: messages posted to a thread, taken by the checkpoint that shows them',
    // Decision 0036. A post is numbered per thread (seq) and unique by the sender's id, so a
    // retried post stores nothing; inbox_taken is the highest seq a saved checkpoint took, moved
    // in the save's own transaction. Posts go with their thread.
    sql: (s) => `
      CREATE TABLE ${s}.inbox (
        thread bigint NOT NULL REFERENCES ${s}.threads (id) ON DELETE CASCADE,
        seq bigint NOT NULL,
        id text NOT NULL,
        mode text NOT NULL,
        posted_at text NOT NULL,
        message text NOT NULL,
        PRIMARY KEY (thread, seq),
        UNIQUE (thread, id)
      );
      ALTER TABLE ${s}.threads ADD COLUMN inbox_taken bigint NOT NULL DEFAULT 0;
    `,
  },
];

/** The schema version this package writes. */
export const SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
