/** One step of the schema's history: the SQL taking version `version - 1` to `version`. */
export interface Migration {
  readonly version: number;
  readonly description: string;
  readonly sql: string;
}

/**
 * Marks a file as a Skein checkpoint database in SQLite's header (`PRAGMA application_id`, bytes
 * 68–71), so a foreign file is recognised before anything is written to it. "SKNC".
 */
export const APPLICATION_ID = 0x534b4e43;

/**
 * The schema's history, oldest first. Append only: a released migration never changes, since files
 * in the field were made by it. Versions run 1, 2, 3… and `PRAGMA user_version` holds the last
 * one applied.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'threads, checkpoints, messages and log entries (incremental checkpoints)',
    sql: `
      CREATE TABLE threads (
        id INTEGER PRIMARY KEY,
        thread_id TEXT NOT NULL UNIQUE,
        workflow_id TEXT NOT NULL,
        workflow_version TEXT NOT NULL,
        status TEXT NOT NULL,
        step INTEGER NOT NULL,
        updated_at TEXT NOT NULL,
        last_checkpoint_id TEXT NOT NULL,
        checkpoint_count INTEGER NOT NULL,
        message_count INTEGER NOT NULL,
        log_count INTEGER NOT NULL
      );
      CREATE TABLE checkpoints (
        id INTEGER PRIMARY KEY,
        thread INTEGER NOT NULL,
        checkpoint_id TEXT NOT NULL,
        sequence INTEGER NOT NULL,
        parent_id TEXT,
        created_at TEXT NOT NULL,
        status TEXT NOT NULL,
        step INTEGER NOT NULL,
        current_node_id TEXT,
        message_count INTEGER NOT NULL,
        log_count INTEGER NOT NULL,
        state TEXT NOT NULL
      );
      CREATE INDEX checkpoints_by_thread ON checkpoints (thread, id);
      CREATE INDEX checkpoints_by_name ON checkpoints (thread, checkpoint_id);
      CREATE TABLE messages (
        thread INTEGER NOT NULL,
        position INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (thread, position)
      );
      CREATE TABLE log_entries (
        thread INTEGER NOT NULL,
        position INTEGER NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (thread, position)
      );
    `,
  },
  {
    version: 2,
    description: 'thread leases: which process runs a thread, and until when',
    // A table of its own, keyed by the thread id's text: a lease is taken before the thread's
    // first checkpoint, when no threads row (which needs a workflow and a head) exists yet, and a
    // renewal then rewrites this small row, not the thread's. WITHOUT ROWID: the key is the only
    // way in, so the row lives in the primary key's b-tree and the save's fence is one lookup.
    // expires_at has INTEGER affinity: epoch ms are stored as integers, and a fractional time
    // (the contract allows any finite number) stays REAL, compared exactly.
    sql: `
      CREATE TABLE leases (
        thread_id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 3,
    description:
      'forks share the conversation they continue (threads.base); wakes and event waits are indexed',
    // A fork's messages at positions below base_messages (log entries below base_log) are the
    // base thread's, read from there rather than copied; its own rows start at those positions.
    // Deleting a base first copies into each of its forks the rows that fork reads from it.
    // wake_at is the latest checkpoint's wake (epoch ms) and waits_for the event it waits for,
    // filled here for threads already waiting from their state (what wakeOf and eventWaitOf read).
    sql: `
      ALTER TABLE threads ADD COLUMN base INTEGER;
      ALTER TABLE threads ADD COLUMN base_messages INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE threads ADD COLUMN base_log INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX threads_by_base ON threads (base) WHERE base IS NOT NULL;
      ALTER TABLE threads ADD COLUMN wake_at INTEGER;
      CREATE INDEX threads_by_wake ON threads (wake_at) WHERE wake_at IS NOT NULL;
      UPDATE threads SET wake_at = (
        SELECT round((julianday(CASE
            WHEN json_extract(c.state, '$.pending.answer') IS NOT NULL THEN NULL
            WHEN json_extract(c.state, '$.pending.kind') = 'sleep'
              THEN json_extract(c.state, '$.pending.wakeAt')
            ELSE json_extract(c.state, '$.pending.deadline')
          END) - 2440587.5) * 86400000.0)
        FROM checkpoints c WHERE c.thread = threads.id ORDER BY c.id DESC LIMIT 1)
      WHERE status IN ('PAUSED', 'WAITING');
      ALTER TABLE threads ADD COLUMN waits_for TEXT;
      CREATE INDEX threads_by_event ON threads (waits_for) WHERE waits_for IS NOT NULL;
      UPDATE threads SET waits_for = (
        SELECT json_extract(c.state, '$.pending.event')
        FROM checkpoints c WHERE c.thread = threads.id
          AND json_extract(c.state, '$.pending.kind') = 'event'
          AND json_extract(c.state, '$.pending.answer') IS NULL
        ORDER BY c.id DESC LIMIT 1)
      WHERE status = 'WAITING';
    `,
  },
  {
    version: 4,
    description: 'attachments: media bytes once per store by digest, and the threads that use them',
    // A message's inline image, audio or file is written once, keyed by its SHA-256, and the
    // message row holds a ref (decision 0033): loading a thread reads no bytes, and a thread
    // showing one image in fifty batches holds it once. attachment_uses says which threads may
    // read an attachment (from which message position first: a fork inherits the uses below its
    // fork point); an attachment goes with its last use. Rows written before this version keep
    // their bytes inline, and load as they did.
    sql: `
      CREATE TABLE attachments (
        digest TEXT PRIMARY KEY,
        media_type TEXT NOT NULL,
        size INTEGER NOT NULL,
        width INTEGER,
        height INTEGER,
        bytes BLOB NOT NULL
      );
      CREATE TABLE attachment_uses (
        thread INTEGER NOT NULL,
        digest TEXT NOT NULL,
        position INTEGER NOT NULL,
        PRIMARY KEY (thread, digest)
      ) WITHOUT ROWID;
      CREATE INDEX attachment_uses_by_digest ON attachment_uses (digest);
    `,
  },
  {
    version: 5,
    description: 'inbox: messages posted to a thread, taken by the checkpoint that shows them',
    // Decision 0036. A post is numbered per thread (seq) and unique by the sender's id, so a
    // retried post stores nothing; inbox_taken is the highest seq a saved checkpoint took, moved
    // in the save's own transaction.
    sql: `
      CREATE TABLE inbox (
        thread INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        id TEXT NOT NULL,
        mode TEXT NOT NULL,
        posted_at TEXT NOT NULL,
        message TEXT NOT NULL,
        PRIMARY KEY (thread, seq),
        UNIQUE (thread, id)
      ) WITHOUT ROWID;
      ALTER TABLE threads ADD COLUMN inbox_taken INTEGER NOT NULL DEFAULT 0;
    `,
  },
];

/** The schema version this package writes. */
export const SCHEMA_VERSION: number = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;
