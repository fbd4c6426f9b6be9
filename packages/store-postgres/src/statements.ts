import type { ForkBaseRow, StoredCheckpointRow, ThreadHeadRow } from '@skein/core/store-kit';
import { named } from './query.js';

/** The thread row a save locks: where its conversation ends and its latest checkpoint. */
export interface ThreadRow extends ThreadHeadRow {
  readonly id: number;
}

/** A checkpoint row with the JSON of the messages and log entries it covers. */
export interface LoadedRow extends StoredCheckpointRow {
  readonly thread: number;
  readonly messages: string[];
  readonly log: string[];
}

/**
 * The checkpoint row `checkpoint` finds (its thread's key as `thread`) with the message and log
 * entry bodies it covers, in order. The bodies are gathered around the one row found, never per
 * candidate row. The thread's own rows are read as they always were, a range of its key in order.
 * A fork's conversation starts in the thread it came from: `chain` follows the `base` links, each
 * giving the positions below where the thread before it starts (and below what the checkpoint
 * covers). Those ranges are disjoint, so the order of position is the conversation's order. Each
 * link is one lookup of a thread's row by key and one range of its rows, each a LATERAL subquery
 * whose LIMIT / OFFSET keeps the planner from turning it into a join over every fork or every
 * message (which it prefers while the tables are small). A thread without a base costs one
 * lookup more.
 */
function withBodies(s: string, checkpoint: string): string {
  return `WITH RECURSIVE
       found AS (${checkpoint}),
       chain (thread, messages_upto, log_upto) AS (
         SELECT t.base, LEAST(found.message_count, t.base_messages), LEAST(found.log_count, t.base_log)
         FROM found, ${s}.threads t
         WHERE t.id = (SELECT thread FROM found) AND t.base IS NOT NULL
           AND (LEAST(found.message_count, t.base_messages) > 0 OR LEAST(found.log_count, t.base_log) > 0)
         UNION ALL
         SELECT t.base, LEAST(chain.messages_upto, t.base_messages), LEAST(chain.log_upto, t.base_log)
         FROM chain, LATERAL (
           SELECT base, base_messages, base_log FROM ${s}.threads WHERE id = chain.thread LIMIT 1) t
         WHERE t.base IS NOT NULL
           AND (LEAST(chain.messages_upto, t.base_messages) > 0 OR LEAST(chain.log_upto, t.base_log) > 0))
     SELECT found.*,
       ARRAY(SELECT m.body FROM chain, LATERAL (SELECT body, position FROM ${s}.messages
           WHERE thread = chain.thread AND position < chain.messages_upto OFFSET 0) m
           ORDER BY m.position)
         || ARRAY(SELECT body FROM ${s}.messages m
           WHERE m.thread = found.thread AND m.position < found.message_count ORDER BY m.position)
         AS messages,
       ARRAY(SELECT l.body FROM chain, LATERAL (SELECT body, position FROM ${s}.log_entries
           WHERE thread = chain.thread AND position < chain.log_upto OFFSET 0) l
           ORDER BY l.position)
         || ARRAY(SELECT body FROM ${s}.log_entries l
           WHERE l.thread = found.thread AND l.position < found.log_count ORDER BY l.position)
         AS log
     FROM found`;
}

/** Where a fork's origin checkpoint left the conversation, and the key of the origin's thread. */
export interface ForkBase extends ForkBaseRow {
  readonly id: number;
}

/** The row of a thread being deleted, as locked: where its own rows start and what is below. */
export interface DeletedThreadRow {
  readonly id: number;
  readonly base: number | null;
  readonly base_messages: number;
  readonly base_log: number;
}

/** The thread row a leased save locked, with the lease it found (none: owner null). */
export interface LeasedThreadRow extends ThreadRow {
  readonly saved: number;
  readonly lease_owner: string | null;
  readonly lease_expires_at: number | null;
}

/**
 * A save on an existing thread as one statement (one round trip, its own transaction): lock the
 * thread's row (a concurrent writer of the thread waits here, then sees what the other
 * committed), and only when the checkpoint continues it (`ok`), write its rows and move the head.
 * Returns the row as locked and whether the checkpoint was saved; no row: no thread.
 *
 * `leased` (the checkpoint names its owner, `$20`) adds the fence: the lease row is locked FOR
 * SHARE, so an `acquireLease` taking it over waits until this save commits, or, having committed
 * first, is what the lock returns (READ COMMITTED re-reads a row updated while it waited). The
 * save writes only when that row exists and is the owner's. A missing row is not proof of a free
 * lease: one inserted after this statement's snapshot is invisible to it, so the caller takes the
 * slower path, which looks again under `waitForLeaseTakers`.
 */
function saveOnHead(s: string, leased: boolean): string {
  return `WITH
       head AS (
         SELECT id, message_count, log_count, last_checkpoint_id FROM ${s}.threads
         WHERE thread_id = $1 FOR UPDATE),${
           leased
             ? `
       lease AS (SELECT owner, expires_at FROM ${s}.leases WHERE thread_id = $1 FOR SHARE),`
             : ''
         }
       ok AS (
         SELECT id FROM head
         WHERE message_count = $2 AND log_count = $4 AND last_checkpoint_id IS NOT DISTINCT FROM $8::text${
           leased
             ? `
           AND EXISTS (SELECT 1 FROM lease WHERE owner = $20::text)`
             : ''
         }),
       new_messages AS (
         INSERT INTO ${s}.messages (thread, position, body)
         SELECT ok.id, $2::bigint + t.ord - 1, t.body
         FROM ok, unnest($3::text[]) WITH ORDINALITY AS t(body, ord)),
       new_log AS (
         INSERT INTO ${s}.log_entries (thread, position, body)
         SELECT ok.id, $4::bigint + t.ord - 1, t.body
         FROM ok, unnest($5::text[]) WITH ORDINALITY AS t(body, ord)),
       new_checkpoint AS (
         INSERT INTO ${s}.checkpoints (thread, checkpoint_id, sequence, parent_id, created_at, status,
           step, current_node_id, message_count, log_count, state)
         SELECT ok.id, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15 FROM ok),
       moved AS (
         UPDATE ${s}.threads SET workflow_id = $16, workflow_version = $17, status = $10, step = $11,
           updated_at = $9, last_checkpoint_id = $6, checkpoint_count = checkpoint_count + 1,
           message_count = $13, log_count = $14, wake_at = $18::float8, waits_for = $19::text
         FROM ok WHERE threads.id = ok.id RETURNING threads.id)
       SELECT head.id, head.message_count, head.log_count, head.last_checkpoint_id,
         (SELECT count(*) FROM moved)::int AS saved${
           leased
             ? `,
         (SELECT owner FROM lease) AS lease_owner, (SELECT expires_at FROM lease) AS lease_expires_at`
             : ''
         }
       FROM head`;
}

/** A row of `saveGroup`: one per checkpoint, in order; `id` null when its thread has no row. */
export interface GroupHeadRow {
  readonly id: number | null;
  readonly message_count: number | null;
  readonly log_count: number | null;
  readonly last_checkpoint_id: string | null;
  readonly saved: number;
  readonly lease_owner: string | null;
  readonly lease_expires_at: number | null;
}

/**
 * `saveOnHead` for many threads at once: one statement, so one transaction, one commit and one
 * round trip for the whole group (at most one checkpoint per thread; see `group-commit.ts`). The
 * same rule per checkpoint: its thread's row is locked (all of them in the order of their keys, so
 * two groups never wait for each other in a circle), a checkpoint naming its owner locks its
 * lease row FOR SHARE and needs it to be the owner's, and only a checkpoint that continues its
 * thread writes. A checkpoint refused here writes nothing and costs the others nothing.
 *
 * A thread's first checkpoint (no row yet, nothing before it, no parent) creates the row here
 * too, already holding its head, in the order of the thread ids; when another writer created it
 * first (`ON CONFLICT DO NOTHING` waits for that one to commit), or its fence saw no lease row,
 * it is not saved and comes back without a row, for the slow path to decide. Forks are not sent
 * here: their row needs the origin's.
 *
 * Per checkpoint: $1 thread id, $2/$3 where its messages and log entries start, $4 parent id,
 * $5 owner (null: no fence), $13–$25 its row and head (wake_at, waits_for last); $6 the thread ids whose lease is looked at;
 * $7–$9 and $10–$12 the new messages and log entries as (checkpoint ordinal, position, body).
 */
function saveGroup(s: string): string {
  return `WITH
       input AS (
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[])
           WITH ORDINALITY AS i(thread_id, from_messages, from_log, parent_id, owner, ord)),
       head AS (
         SELECT id, thread_id, message_count, log_count, last_checkpoint_id FROM ${s}.threads
         WHERE thread_id = ANY($1::text[]) ORDER BY id FOR UPDATE),
       lease AS (
         SELECT thread_id, owner, expires_at FROM ${s}.leases
         WHERE thread_id = ANY($6::text[]) ORDER BY thread_id FOR SHARE),
       fenced AS (
         SELECT * FROM input
         WHERE input.owner IS NULL OR EXISTS (
           SELECT 1 FROM lease WHERE lease.thread_id = input.thread_id AND lease.owner = input.owner)),
       row_values AS (
         SELECT * FROM unnest($13::text[], $14::bigint[], $15::text[],
             $16::text[], $17::bigint[], $18::text[], $19::bigint[], $20::bigint[], $21::text[],
             $22::text[], $23::text[], $24::float8[], $25::text[])
           WITH ORDINALITY AS c(checkpoint_id, sequence, created_at, status, step, current_node_id,
             message_count, log_count, state, workflow_id, workflow_version, wake_at, waits_for, ord)),
       created AS (
         INSERT INTO ${s}.threads (thread_id, workflow_id, workflow_version, status, step,
           updated_at, last_checkpoint_id, checkpoint_count, message_count, log_count, wake_at,
           waits_for)
         SELECT f.thread_id, c.workflow_id, c.workflow_version, c.status, c.step, c.created_at,
           c.checkpoint_id, 1, c.message_count, c.log_count, c.wake_at, c.waits_for
         FROM fenced f JOIN row_values c ON c.ord = f.ord
         WHERE f.from_messages = 0 AND f.from_log = 0 AND f.parent_id IS NULL
           AND NOT EXISTS (SELECT 1 FROM head WHERE head.thread_id = f.thread_id)
         ORDER BY f.thread_id
         ON CONFLICT (thread_id) DO NOTHING
         RETURNING id, thread_id),
       ok AS (
         SELECT head.id, f.ord, f.parent_id, false AS fresh FROM fenced f
           JOIN head ON head.thread_id = f.thread_id
         WHERE head.message_count = f.from_messages AND head.log_count = f.from_log
           AND head.last_checkpoint_id IS NOT DISTINCT FROM f.parent_id
         UNION ALL
         SELECT created.id, f.ord, f.parent_id, true FROM fenced f
           JOIN created ON created.thread_id = f.thread_id),
       new_messages AS (
         INSERT INTO ${s}.messages (thread, position, body)
         SELECT ok.id, m.position, m.body
         FROM unnest($7::bigint[], $8::bigint[], $9::text[]) AS m(ord, position, body)
         JOIN ok ON ok.ord = m.ord),
       new_log AS (
         INSERT INTO ${s}.log_entries (thread, position, body)
         SELECT ok.id, l.position, l.body
         FROM unnest($10::bigint[], $11::bigint[], $12::text[]) AS l(ord, position, body)
         JOIN ok ON ok.ord = l.ord),
       accepted AS (
         SELECT ok.id, ok.parent_id, ok.fresh, c.* FROM row_values c JOIN ok ON ok.ord = c.ord),
       new_checkpoints AS (
         INSERT INTO ${s}.checkpoints (thread, checkpoint_id, sequence, parent_id, created_at, status,
           step, current_node_id, message_count, log_count, state)
         SELECT id, checkpoint_id, sequence, parent_id, created_at, status, step, current_node_id,
           message_count, log_count, state
         FROM accepted ORDER BY ord),
       moved AS (
         UPDATE ${s}.threads t SET workflow_id = a.workflow_id, workflow_version = a.workflow_version,
           status = a.status, step = a.step, updated_at = a.created_at,
           last_checkpoint_id = a.checkpoint_id, checkpoint_count = t.checkpoint_count + 1,
           message_count = a.message_count, log_count = a.log_count, wake_at = a.wake_at,
           waits_for = a.waits_for
         FROM accepted a WHERE t.id = a.id AND NOT a.fresh RETURNING a.ord)
     SELECT coalesce(head.id, created.id) AS id, head.message_count, head.log_count,
       head.last_checkpoint_id, (moved.ord IS NOT NULL OR created.id IS NOT NULL)::int AS saved,
       lease.owner AS lease_owner, lease.expires_at AS lease_expires_at
     FROM input
       LEFT JOIN head ON head.thread_id = input.thread_id
       LEFT JOIN created ON created.thread_id = input.thread_id
       LEFT JOIN lease ON lease.thread_id = input.thread_id AND input.owner IS NOT NULL
       LEFT JOIN moved ON moved.ord = input.ord
     ORDER BY input.ord`;
}

/**
 * Takes or renews the leases of several threads (at most one request per thread): a row per
 * request, in order, `taken` when it was written. Per thread as `acquireLease` alone would: the
 * thread's advisory lock first, held until commit (what a save that found no lease row waits on,
 * `waitForLeaseTakers`), then ON CONFLICT settles two askers atomically (the second waits for the
 * first's row, then tests the WHERE against what it committed). Locks are taken in the order of
 * the thread ids, so two such statements never wait for each other in a circle. The WHERE
 * compares with the request's own `now`, which ON CONFLICT can only read from the input.
 */
function acquireLeases(s: string, leaseLockKey: (threadId: string) => string): string {
  return `WITH
       input AS (
         SELECT * FROM unnest($1::text[], $2::text[], $3::float8[], $4::float8[])
           WITH ORDINALITY AS i(thread_id, owner, expires_at, now, ord)),
       taken AS (
         INSERT INTO ${s}.leases AS l (thread_id, owner, expires_at)
         SELECT i.thread_id, i.owner, i.expires_at
         FROM (SELECT * FROM input ORDER BY thread_id) i,
           LATERAL (SELECT pg_advisory_xact_lock(${leaseLockKey('i.thread_id')})) AS locked
         ON CONFLICT (thread_id) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE l.owner = excluded.owner
           OR l.expires_at <= (SELECT now FROM input WHERE input.thread_id = excluded.thread_id)
         RETURNING thread_id)
     SELECT taken.thread_id IS NOT NULL AS taken
     FROM input LEFT JOIN taken ON taken.thread_id = input.thread_id
     ORDER BY input.ord`;
}

/** Every statement the store runs, written for one schema. */
export type Statements = ReturnType<typeof statements>;

const CHECKPOINT_COLUMNS =
  'checkpoint_id, sequence, created_at, status, step, current_node_id, message_count, log_count';

/** `schema` is a checked identifier (see `checkSchema`), so quoting it is enough. */
export function statements(schema: string) {
  const s = `"${schema}"`;
  // Per schema and thread; the schema's migrations lock '@skein/store-postgres:<schema>'.
  const leaseLockKey = (threadId: string) =>
    `hashtextextended('@skein/store-postgres:${schema}:lease:' || ${threadId}, 0)`;
  return {
    /** Locks the thread's row for the rest of the transaction: writers of one thread queue here. */
    lockThread: named(`SELECT id, message_count, log_count, last_checkpoint_id FROM ${s}.threads
       WHERE thread_id = $1 FOR UPDATE`),
    /**
     * Nothing comes back when another transaction created the thread first. A fork's row starts
     * with the counts of the conversation it shares (`$8` the thread holding it, `$9`/`$10` where
     * the fork's own rows start); any other thread's with null, 0, 0.
     */
    insertThread:
      named(`INSERT INTO ${s}.threads (thread_id, workflow_id, workflow_version, status, step,
         updated_at, last_checkpoint_id, checkpoint_count, message_count, log_count, base,
         base_messages, base_log)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $9, $10, $8, $9, $10)
       ON CONFLICT (thread_id) DO NOTHING RETURNING id`),
    /**
     * A fork's origin: thread `$1`'s checkpoint `$2`. Its thread's row is locked FOR KEY SHARE
     * until commit, so a delete of it waits for the fork to commit (then hands it its rows), or,
     * having committed first, leaves nothing to find. Saves of the origin are not held up: they
     * do not change its key.
     */
    lockForkBase: named(`SELECT t.id, c.message_count, c.log_count
       FROM ${s}.threads t JOIN ${s}.checkpoints c ON c.thread = t.id AND c.checkpoint_id = $2
       WHERE t.thread_id = $1
       ORDER BY c.id LIMIT 1 FOR KEY SHARE OF t`),
    // The save path's statements are prepared once per connection (see `named`).
    saveOnHead: named(saveOnHead(s, false)),
    saveOnHeadLeased: named(saveOnHead(s, true)),
    saveGroup: named(saveGroup(s)),
    /** A first checkpoint's rows and head, once its thread row exists (`$1` is its key). */
    appendCheckpoint: named(`WITH
       new_messages AS (
         INSERT INTO ${s}.messages (thread, position, body)
         SELECT $1, $2::bigint + t.ord - 1, t.body FROM unnest($3::text[]) WITH ORDINALITY AS t(body, ord)),
       new_log AS (
         INSERT INTO ${s}.log_entries (thread, position, body)
         SELECT $1, $4::bigint + t.ord - 1, t.body FROM unnest($5::text[]) WITH ORDINALITY AS t(body, ord)),
       new_checkpoint AS (
         INSERT INTO ${s}.checkpoints (thread, checkpoint_id, sequence, parent_id, created_at, status,
           step, current_node_id, message_count, log_count, state)
         VALUES ($1, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15))
       UPDATE ${s}.threads SET workflow_id = $16, workflow_version = $17, status = $10, step = $11,
         updated_at = $9, last_checkpoint_id = $6, checkpoint_count = checkpoint_count + 1,
         message_count = $13, log_count = $14, wake_at = $18::float8, waits_for = $19::text
       WHERE id = $1`),
    /**
     * A thread's latest checkpoint with the message and log entry bodies it covers, in order:
     * one statement, so one snapshot (a delete meanwhile cannot tear the read) and one round trip.
     * The thread's row id is looked up first: written as a join with ORDER BY id LIMIT 1, the
     * planner walks every checkpoint of every thread backwards by id looking for a match, which
     * for a thread with no checkpoint yet is the whole table.
     */
    latestCheckpoint: withBodies(
      s,
      `SELECT c.thread, ${CHECKPOINT_COLUMNS.replace(/(\w+)/g, 'c.$1')}, c.state
       FROM ${s}.checkpoints c
       WHERE c.thread = (SELECT id FROM ${s}.threads WHERE thread_id = $1)
       ORDER BY c.id DESC LIMIT 1`,
    ),
    /** The same for a named checkpoint (`$2`). */
    namedCheckpoint: withBodies(
      s,
      `SELECT c.thread, ${CHECKPOINT_COLUMNS.replace(/(\w+)/g, 'c.$1')}, c.state
       FROM ${s}.checkpoints c
       WHERE c.thread = (SELECT id FROM ${s}.threads WHERE thread_id = $1) AND c.checkpoint_id = $2
       ORDER BY c.id LIMIT 1`,
    ),
    /** Every thread whose latest checkpoint holds a wake, soonest first (the partial index). */
    listWakes: `SELECT thread_id AS "threadId", wake_at AS at FROM ${s}.threads
       WHERE wake_at IS NOT NULL ORDER BY wake_at`,
    /** The threads whose latest checkpoint waits for event `$1`, oldest first (an index). */
    listWaiting: `SELECT thread_id FROM ${s}.threads WHERE waits_for = $1 ORDER BY id`,
    listCheckpoints: `SELECT ${CHECKPOINT_COLUMNS} FROM ${s}.checkpoints
       WHERE thread = (SELECT id FROM ${s}.threads WHERE thread_id = $1) ORDER BY id`,
    listStates: `SELECT ${CHECKPOINT_COLUMNS}, state FROM ${s}.checkpoints
       WHERE thread = (SELECT id FROM ${s}.threads WHERE thread_id = $1) ORDER BY id`,
    listThreads: `SELECT thread_id, workflow_id, workflow_version, status, step, checkpoint_count,
         last_checkpoint_id, updated_at
       FROM ${s}.threads ORDER BY id`,
    /**
     * Deletes a thread no fork shares rows of: messages, log entries and checkpoints go with it
     * (ON DELETE CASCADE), and its lease too, in the same statement. A thread with forks is left
     * as it is (`forked`: see `delete-thread.ts`). So is one whose fork committed after this
     * statement began: the foreign key refuses the delete then.
     */
    deleteThread: `WITH
       target AS (SELECT id FROM ${s}.threads WHERE thread_id = $1),
       forked AS (SELECT EXISTS (
         SELECT 1 FROM ${s}.threads f WHERE f.base = (SELECT id FROM target)) AS yes),
       lease AS (DELETE FROM ${s}.leases WHERE thread_id = $1 AND NOT (SELECT yes FROM forked)),
       gone AS (
         DELETE FROM ${s}.threads WHERE id = (SELECT id FROM target) AND NOT (SELECT yes FROM forked)
         RETURNING 1)
       SELECT (SELECT count(*) FROM gone)::int AS deleted, (SELECT yes FROM forked) AS forked`,
    /**
     * Writes attachments (`$1` digests, `$2` media types, `$3` sizes, `$4`/`$5` widths and
     * heights, `$6` bytes) whose digest is not stored. One already stored is locked, not written
     * (an update whose condition is false still locks the row): a delete of it waits for this
     * transaction, then finds the use it adds and leaves it.
     */
    insertAttachments:
      named(`INSERT INTO ${s}.attachments (digest, media_type, size, width, height, bytes)
       SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::integer[], $5::integer[], $6::bytea[])
       ON CONFLICT (digest) DO UPDATE SET size = excluded.size WHERE false`),
    /**
     * Records that thread `$1` refers to digests `$2` from positions `$3`, unless it does; only
     * for attachments stored (a ref of the app's own names bytes the store never had).
     */
    insertUses: named(`INSERT INTO ${s}.attachment_uses (thread, digest, position)
       SELECT $1, u.d, u.p FROM unnest($2::text[], $3::bigint[]) AS u(d, p)
       WHERE EXISTS (SELECT 1 FROM ${s}.attachments a WHERE a.digest = u.d)
       ON CONFLICT (thread, digest) DO NOTHING`),
    /** Gives fork `$1` the uses of its origin `$2` below its fork point `$3`. */
    /** A thread's inbox mark and last seq (decision 0036); `$1` its key. */
    inboxExtent: named(`SELECT t.inbox_taken::int AS taken,
       coalesce((SELECT max(seq) FROM ${s}.inbox WHERE thread = t.id), 0)::int AS last
       FROM ${s}.threads t WHERE t.id = $1`),
    setInboxTaken: named(`UPDATE ${s}.threads SET inbox_taken = $2 WHERE id = $1`),
    inboxSeqOf: named(`SELECT seq::int AS seq FROM ${s}.inbox WHERE thread = $1 AND id = $2`),
    /** Posts after the thread's row is locked: seq follows the last one, in commit order. */
    insertPost: named(`INSERT INTO ${s}.inbox (thread, seq, id, mode, posted_at, message)
       SELECT $1, coalesce(max(seq), 0) + 1, $2, $3, $4, $5 FROM ${s}.inbox WHERE thread = $1
       RETURNING seq::int AS seq`),
    /** The posts not taken of each thread of `$1` (an array), by thread then seq: one read for many runs. */
    pendingMessages: named(`SELECT t.thread_id AS "threadId", i.seq::int AS seq, i.id, i.mode,
       i.posted_at AS "postedAt", i.message FROM ${s}.threads t
       JOIN ${s}.inbox i ON i.thread = t.id AND i.seq > t.inbox_taken
       WHERE t.thread_id = ANY($1::text[]) ORDER BY t.thread_id, i.seq`),
    copyUses: named(`INSERT INTO ${s}.attachment_uses (thread, digest, position)
       SELECT $1, digest, position FROM ${s}.attachment_uses WHERE thread = $2 AND position < $3`),
    /** An attachment's bytes (`$2`), through thread `$1`, which must use it. */
    attachmentBytes: `SELECT a.bytes FROM ${s}.threads t
       JOIN ${s}.attachment_uses u ON u.thread = t.id AND u.digest = $2
       JOIN ${s}.attachments a ON a.digest = u.digest
       WHERE t.thread_id = $1`,
    /** The digests thread `$1` uses: what may be left unused once it is deleted. */
    usedDigests: `SELECT u.digest FROM ${s}.attachment_uses u
       JOIN ${s}.threads t ON t.id = u.thread WHERE t.thread_id = $1`,
    /** Deletes those of attachments `$1` no thread uses. */
    deleteUnusedAttachments: `DELETE FROM ${s}.attachments a WHERE a.digest = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM ${s}.attachment_uses u WHERE u.digest = a.digest)`,
    /** The row of a thread to delete, locked first: no fork of it can be saved from now on. */
    lockDeleted: `SELECT id, base, base_messages, base_log FROM ${s}.threads
       WHERE thread_id = $1 FOR UPDATE`,
    /** Its forks (`$1` its key), locked so that none is deleted or saved while they are moved. */
    lockForks: `SELECT id FROM ${s}.threads WHERE base = $1 ORDER BY id FOR UPDATE`,
    /**
     * Hands the forks of thread `$1` what they read from it: its own rows below where each fork
     * starts (its own rows start at its `base_messages`, so exactly the range between), after
     * which each fork reads the rest from where `$1` did (`$2`, below `$3`/`$4`).
     */
    detachForks: `WITH
       forks AS (SELECT id, base_messages, base_log FROM ${s}.threads WHERE base = $1),
       copied_messages AS (
         INSERT INTO ${s}.messages (thread, position, body)
         SELECT f.id, m.position, m.body
         FROM forks f JOIN ${s}.messages m ON m.thread = $1 AND m.position < f.base_messages),
       copied_log AS (
         INSERT INTO ${s}.log_entries (thread, position, body)
         SELECT f.id, l.position, l.body
         FROM forks f JOIN ${s}.log_entries l ON l.thread = $1 AND l.position < f.base_log)
       UPDATE ${s}.threads t SET base = $2::bigint,
         base_messages = LEAST(t.base_messages, $3::bigint), base_log = LEAST(t.base_log, $4::bigint)
       FROM forks WHERE t.id = forks.id`,
    /** The thread and its lease, with nothing left depending on it. */
    deleteDetached: `WITH lease AS (DELETE FROM ${s}.leases WHERE thread_id = $1)
       DELETE FROM ${s}.threads WHERE thread_id = $1`,
    /**
     * Drops all but the newest `$2` checkpoints of a locked thread; returns how many went. The
     * thread's id is a scalar, so both steps walk its index range, not the table (see above).
     */
    prune: `WITH
       thread AS (SELECT id FROM ${s}.threads WHERE thread_id = $1 FOR UPDATE),
       oldest_kept AS (
         SELECT c.id FROM ${s}.checkpoints c WHERE c.thread = (SELECT id FROM thread)
         ORDER BY c.id DESC LIMIT 1 OFFSET $2::bigint - 1),
       gone AS (
         DELETE FROM ${s}.checkpoints c
         WHERE c.thread = (SELECT id FROM thread) AND c.id < (SELECT id FROM oldest_kept)
         RETURNING 1),
       counted AS (SELECT count(*) AS n FROM gone)
       UPDATE ${s}.threads SET checkpoint_count = checkpoint_count - counted.n
       FROM thread, counted WHERE threads.id = thread.id
       RETURNING counted.n AS removed`,
    acquireLeases: named(acquireLeases(s, leaseLockKey)),
    /**
     * Gives up leases (`$1` thread ids, `$2` the owner asking for each); another owner's stays.
     * Rows are locked in the order of the thread ids first, as `acquireLeases` locks them.
     */
    releaseLeases: named(`WITH
       gone AS (
         SELECT l.thread_id FROM ${s}.leases l
           JOIN unnest($1::text[], $2::text[]) AS r(thread_id, owner)
             ON l.thread_id = r.thread_id AND l.owner = r.owner
         ORDER BY l.thread_id FOR UPDATE OF l)
       DELETE FROM ${s}.leases l USING gone WHERE l.thread_id = gone.thread_id`),
    /** The fence of a save's transaction: an `acquireLease` taking the row over waits for it. */
    lockLease: named(`SELECT owner, expires_at AS "expiresAt" FROM ${s}.leases
       WHERE thread_id = $1 FOR SHARE`),
    /** Until the transaction ends, no `acquireLease` of the thread can start or be under way. */
    waitForLeaseTakers: named(`SELECT pg_advisory_xact_lock_shared(${leaseLockKey('$1::text')})`),
  };
}
