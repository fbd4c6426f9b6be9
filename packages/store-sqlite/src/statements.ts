import type {
  CheckpointRow,
  InboxRow,
  StoredCheckpointRow,
  ThreadHeadRow,
  ThreadListRow,
} from '@skein/core/store-kit';
import type { HeldLease, StoredWake } from '@skein/spec';
import type { SqliteConnection, SqliteStatement, SqlValue } from './driver/connection.js';

/** Where a thread's conversation starts being its own: below these positions it is `base`'s. */
export interface BaseLink {
  readonly id: number;
  readonly base: number | null;
  readonly base_messages: number;
  readonly base_log: number;
}

interface ThreadRow extends ThreadHeadRow, BaseLink {}

/** A fork's origin checkpoint: its thread's key and where its conversation ended. */
interface ForkBaseRow {
  readonly thread: number;
  readonly message_count: number;
  readonly log_count: number;
}

type Run<P extends SqlValue[]> = SqliteStatement<P, unknown>;

/** Every statement the store runs, prepared once per connection. */
export interface Statements {
  readonly thread: SqliteStatement<[string], ThreadRow>;
  readonly insertThread: Run<[string, string, string, string, number, string, string]>;
  readonly updateThread: Run<
    [
      string,
      string,
      string,
      number,
      string,
      string,
      number,
      number,
      number | null,
      string | null,
      number,
    ]
  >;
  /**
   * Moves a thread's head to a checkpoint that continues it, fence included, in one statement:
   * the row's key when it moved; none when the thread has no row or the checkpoint does not
   * continue it (nothing written then).
   */
  readonly moveHead: SqliteStatement<
    [
      string,
      string,
      string,
      number,
      string,
      string,
      number,
      number,
      number | null,
      string | null,
      string,
      number,
      number,
      string | null,
      string | null,
      string | null,
    ],
    { readonly id: number }
  >;
  readonly listWakes: SqliteStatement<[], StoredWake>;
  readonly listWaiting: SqliteStatement<[string], string>;
  /** Links a fork's new row to the thread its conversation continues. */
  readonly setBase: Run<[number | null, number, number, number]>;
  readonly link: SqliteStatement<[number], BaseLink>;
  readonly forkBase: SqliteStatement<[string, string], ForkBaseRow>;
  /** Threads whose conversation continues this one's. */
  readonly forksOf: SqliteStatement<[number], BaseLink>;
  /** Copies the first thread's own rows below a position into the second. */
  readonly copyMessages: Run<[number, number, number]>;
  readonly copyLogEntries: Run<[number, number, number]>;
  readonly insertMessage: Run<[number, number, string]>;
  readonly insertLogEntry: Run<[number, number, string]>;
  readonly insertCheckpoint: Run<
    [
      number,
      string,
      number,
      string | null,
      string,
      string,
      number,
      string | null,
      number,
      number,
      string,
    ]
  >;
  readonly latestCheckpoint: SqliteStatement<[number], StoredCheckpointRow>;
  readonly namedCheckpoint: SqliteStatement<[number, string], StoredCheckpointRow>;
  readonly listCheckpoints: SqliteStatement<[string], CheckpointRow>;
  readonly listStates: SqliteStatement<[string], StoredCheckpointRow>;
  readonly listThreads: SqliteStatement<[], ThreadListRow>;
  /** Message bodies (JSON) at positions below the count, in order. */
  readonly messages: SqliteStatement<[number, number], string>;
  readonly logEntries: SqliteStatement<[number, number], string>;
  /** Row id of the `n`th newest checkpoint (OFFSET n - 1). */
  readonly nthNewestCheckpoint: SqliteStatement<[number, number], number>;
  readonly deleteCheckpointsBefore: Run<[number, number]>;
  readonly decrementCheckpoints: Run<[number, number]>;
  readonly deleteMessages: Run<[number]>;
  readonly deleteLogEntries: Run<[number]>;
  readonly deleteCheckpoints: Run<[number]>;
  readonly deleteThread: Run<[number]>;
  /** Writes an attachment's bytes unless a row of its digest exists. */
  readonly insertAttachment: Run<
    [string, string, number, number | null, number | null, Uint8Array]
  >;
  /**
   * Records that a thread refers to a digest (from a position), unless it already does; only for
   * an attachment stored (a ref of the app's own names bytes the store never had).
   */
  readonly insertUse: Run<[number, string, number, string]>;
  /** Gives a fork (first) the uses of its base (second) below its fork point (third). */
  readonly copyUses: Run<[number, number, number]>;
  /** The bytes of an attachment, through a thread (by its id) that uses it. */
  readonly attachmentBytes: SqliteStatement<[string, string], Uint8Array>;
  /** Deletes the attachments a thread uses that no other thread does. */
  readonly deleteUnusedAttachments: Run<[number, number]>;
  readonly deleteUses: Run<[number]>;
  /** The thread's inbox mark and last seq (decision 0036). */
  readonly inboxExtent: SqliteStatement<[number], { taken: number; last: number }>;
  readonly setInboxTaken: Run<[number, number]>;
  readonly inboxSeqOf: SqliteStatement<[number, string], number>;
  readonly postMessage: Run<[number, string, string, string, string, number]>;
  readonly pendingMessages: SqliteStatement<[string], InboxRow>;
  readonly deleteInbox: Run<[number]>;
  /** The thread's lease as `mayTakeLease` and `checkLeaseOwner` read it. */
  readonly lease: SqliteStatement<[string], HeldLease>;
  /** Writes a row (changes 1) only when the lease is free, expired at `now` or the owner's. */
  readonly acquireLease: Run<[string, string, number, number]>;
  readonly releaseLease: Run<[string, string]>;
  readonly deleteLease: Run<[string]>;
}

const CHECKPOINT_COLUMNS =
  'checkpoint_id, sequence, created_at, status, step, current_node_id, message_count, log_count';

export function prepareStatements(db: SqliteConnection): Statements {
  return {
    thread: db.prepare(
      `SELECT id, message_count, log_count, last_checkpoint_id, base, base_messages, base_log
       FROM threads WHERE thread_id = ?`,
    ),
    setBase: db.prepare(
      'UPDATE threads SET base = ?, base_messages = ?, base_log = ? WHERE id = ?',
    ),
    link: db.prepare('SELECT id, base, base_messages, base_log FROM threads WHERE id = ?'),
    forkBase: db.prepare(
      `SELECT c.thread, c.message_count, c.log_count FROM checkpoints c
       WHERE c.thread = (SELECT id FROM threads WHERE thread_id = ?) AND c.checkpoint_id = ?
       ORDER BY c.id LIMIT 1`,
    ),
    forksOf: db.prepare('SELECT id, base, base_messages, base_log FROM threads WHERE base = ?'),
    copyMessages: db.prepare(
      `INSERT INTO messages (thread, position, body)
       SELECT ?, position, body FROM messages WHERE thread = ? AND position < ?`,
    ),
    copyLogEntries: db.prepare(
      `INSERT INTO log_entries (thread, position, body)
       SELECT ?, position, body FROM log_entries WHERE thread = ? AND position < ?`,
    ),
    insertThread: db.prepare(
      `INSERT INTO threads (thread_id, workflow_id, workflow_version, status, step, updated_at,
         last_checkpoint_id, checkpoint_count, message_count, log_count)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, 0)`,
    ),
    updateThread: db.prepare(
      `UPDATE threads SET workflow_id = ?, workflow_version = ?, status = ?, step = ?,
         updated_at = ?, last_checkpoint_id = ?, checkpoint_count = checkpoint_count + 1,
         message_count = ?, log_count = ?, wake_at = ?, waits_for = ?
       WHERE id = ?`,
    ),
    // The rule of checkContinues and checkLeaseOwner in SQL: the delta starts where the thread's
    // conversation ends, the parent is its latest checkpoint, and when the checkpoint names an
    // owner no other owner holds the lease.
    moveHead: db.prepare(
      `UPDATE threads SET workflow_id = ?, workflow_version = ?, status = ?, step = ?,
         updated_at = ?, last_checkpoint_id = ?, checkpoint_count = checkpoint_count + 1,
         message_count = ?, log_count = ?, wake_at = ?, waits_for = ?
       WHERE thread_id = ? AND message_count = ? AND log_count = ? AND last_checkpoint_id IS ?
         AND (? IS NULL OR NOT EXISTS (
           SELECT 1 FROM leases l WHERE l.thread_id = threads.thread_id AND l.owner <> ?))
       RETURNING id`,
    ),
    listWaiting: db.column<[string], string>(
      'SELECT thread_id FROM threads WHERE waits_for = ? ORDER BY id',
    ),
    listWakes: db.prepare(
      'SELECT thread_id AS threadId, wake_at AS at FROM threads WHERE wake_at IS NOT NULL ORDER BY wake_at',
    ),
    insertMessage: db.prepare('INSERT INTO messages (thread, position, body) VALUES (?, ?, ?)'),
    insertLogEntry: db.prepare('INSERT INTO log_entries (thread, position, body) VALUES (?, ?, ?)'),
    insertCheckpoint: db.prepare(
      `INSERT INTO checkpoints (thread, checkpoint_id, sequence, parent_id, created_at, status,
         step, current_node_id, message_count, log_count, state)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    latestCheckpoint: db.prepare(
      `SELECT ${CHECKPOINT_COLUMNS}, state FROM checkpoints WHERE thread = ? ORDER BY id DESC LIMIT 1`,
    ),
    namedCheckpoint: db.prepare(
      `SELECT ${CHECKPOINT_COLUMNS}, state FROM checkpoints
       WHERE thread = ? AND checkpoint_id = ? ORDER BY id LIMIT 1`,
    ),
    listCheckpoints: db.prepare(
      `SELECT ${CHECKPOINT_COLUMNS} FROM checkpoints
       WHERE thread = (SELECT id FROM threads WHERE thread_id = ?) ORDER BY id`,
    ),
    listStates: db.prepare(
      `SELECT ${CHECKPOINT_COLUMNS}, state FROM checkpoints
       WHERE thread = (SELECT id FROM threads WHERE thread_id = ?) ORDER BY id`,
    ),
    listThreads: db.prepare(
      `SELECT thread_id, workflow_id, workflow_version, status, step, checkpoint_count,
         last_checkpoint_id, updated_at
       FROM threads ORDER BY id`,
    ),
    messages: db.column<[number, number], string>(
      'SELECT body FROM messages WHERE thread = ? AND position < ? ORDER BY position',
    ),
    logEntries: db.column<[number, number], string>(
      'SELECT body FROM log_entries WHERE thread = ? AND position < ? ORDER BY position',
    ),
    nthNewestCheckpoint: db.column<[number, number], number>(
      'SELECT id FROM checkpoints WHERE thread = ? ORDER BY id DESC LIMIT 1 OFFSET ?',
    ),
    deleteCheckpointsBefore: db.prepare('DELETE FROM checkpoints WHERE thread = ? AND id < ?'),
    decrementCheckpoints: db.prepare(
      'UPDATE threads SET checkpoint_count = checkpoint_count - ? WHERE id = ?',
    ),
    deleteMessages: db.prepare('DELETE FROM messages WHERE thread = ?'),
    deleteLogEntries: db.prepare('DELETE FROM log_entries WHERE thread = ?'),
    deleteCheckpoints: db.prepare('DELETE FROM checkpoints WHERE thread = ?'),
    deleteThread: db.prepare('DELETE FROM threads WHERE id = ?'),
    insertAttachment: db.prepare(
      `INSERT INTO attachments (digest, media_type, size, width, height, bytes)
       VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (digest) DO NOTHING`,
    ),
    insertUse: db.prepare(
      `INSERT INTO attachment_uses (thread, digest, position)
       SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM attachments WHERE digest = ?)
       ON CONFLICT (thread, digest) DO NOTHING`,
    ),
    copyUses: db.prepare(
      `INSERT INTO attachment_uses (thread, digest, position)
       SELECT ?, digest, position FROM attachment_uses WHERE thread = ? AND position < ?`,
    ),
    attachmentBytes: db.column(
      `SELECT a.bytes FROM threads t
       JOIN attachment_uses u ON u.thread = t.id AND u.digest = ?
       JOIN attachments a ON a.digest = u.digest
       WHERE t.thread_id = ?`,
    ),
    deleteUnusedAttachments: db.prepare(
      `DELETE FROM attachments WHERE digest IN (SELECT digest FROM attachment_uses WHERE thread = ?)
         AND NOT EXISTS (SELECT 1 FROM attachment_uses u
           WHERE u.digest = attachments.digest AND u.thread <> ?)`,
    ),
    deleteUses: db.prepare('DELETE FROM attachment_uses WHERE thread = ?'),
    inboxExtent: db.prepare(
      `SELECT t.inbox_taken AS taken,
         coalesce((SELECT max(seq) FROM inbox WHERE thread = t.id), 0) AS last
       FROM threads t WHERE t.id = ?`,
    ),
    setInboxTaken: db.prepare('UPDATE threads SET inbox_taken = ? WHERE id = ?'),
    inboxSeqOf: db.column('SELECT seq FROM inbox WHERE thread = ? AND id = ?'),
    postMessage: db.prepare(
      `INSERT INTO inbox (thread, seq, id, mode, posted_at, message)
       SELECT ?, coalesce(max(seq), 0) + 1, ?, ?, ?, ? FROM inbox WHERE thread = ?`,
    ),
    pendingMessages: db.prepare(
      `SELECT i.seq, i.id, i.mode, i.posted_at AS postedAt, i.message
       FROM threads t JOIN inbox i ON i.thread = t.id AND i.seq > t.inbox_taken
       WHERE t.thread_id = ? ORDER BY i.seq`,
    ),
    deleteInbox: db.prepare('DELETE FROM inbox WHERE thread = ?'),
    lease: db.prepare('SELECT owner, expires_at AS expiresAt FROM leases WHERE thread_id = ?'),
    // One statement, so the check and the write cannot be split by another process: SQLite takes
    // the write lock as the statement starts (the busy timeout applies), before reading the row.
    acquireLease: db.prepare(
      `INSERT INTO leases (thread_id, owner, expires_at) VALUES (?, ?, ?)
       ON CONFLICT (thread_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
       WHERE leases.owner = excluded.owner OR leases.expires_at <= ?`,
    ),
    releaseLease: db.prepare('DELETE FROM leases WHERE thread_id = ? AND owner = ?'),
    deleteLease: db.prepare('DELETE FROM leases WHERE thread_id = ?'),
  };
}
