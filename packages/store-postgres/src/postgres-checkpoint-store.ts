import {
  type Checkpoint,
  type CheckpointInfo,
  type CheckpointRow,
  type CheckpointStore,
  checkContinues,
  checkForkContinues,
  checkInboxPost,
  checkInboxTaken,
  checkKeepLast,
  checkpointInfo,
  checkString,
  decodeStoredState,
  decodeStoredThread,
  type EncodedCheckpoint,
  encodeCheckpoint,
  type InboxRow,
  inboxJson,
  type MigrationResult,
  postedFromRow,
  type StoredCheckpointRow,
  type StoredState,
  type StoredThread,
  type StoredWake,
  type StoreIdentity,
  storeClosed,
  storeCorrupt,
  type ThreadInfo,
  type ThreadListRow,
  threadInfo,
} from '@skein/core/store-kit';
import {
  CheckpointNotFoundError,
  checkLeaseOwner,
  checkLeaseRequest,
  type ForkOrigin,
  type HeldLease,
  type InboxPost,
  type LeaseRequest,
  type PostedMessage,
} from '@skein/spec';
import pg, { type Pool, type PoolClient } from 'pg';
import { dropUnused, isPlain, writeAttachments } from './attachment-writes.js';
import { deleteThread } from './delete-thread.js';
import { postgresStore } from './errors/store-errors.js';
import { GroupCommit, type Outcome } from './group-commit.js';
import { type GroupWrite, type WriteResult, writeRound } from './group-write.js';
import { acquireLeases, type LeaseTarget, releaseLeases } from './lease-writes.js';
import { query, transaction } from './query.js';
import { groupValues, headOf } from './save-group.js';
import { applyMigrations } from './schema/migrate.js';
import { MIGRATIONS, SCHEMA_VERSION } from './schema/migrations.js';
import type {
  ForkBase,
  GroupHeadRow,
  LeasedThreadRow,
  LoadedRow,
  ThreadRow,
} from './statements.js';
import { type Statements, statements } from './statements.js';
import { checkOptions, checkSchema, type PostgresCheckpointStoreOptions } from './store-options.js';
import {
  errorCode,
  FOREIGN_KEY_VIOLATION,
  isStatementRefusal,
  translateError,
} from './translate-error.js';

/**
 * A `CheckpointStore` in PostgreSQL tables of one schema (`skein` unless told). Each message and
 * log entry is a row of its own, written once; a checkpoint row holds the thread state and how
 * many messages and log entries it covers, so saving costs the same at step 10 and step 10,000.
 * A save is one transaction that first locks the thread's row, so writers of one thread in any
 * number of processes queue, and each checks continuity against what the previous one committed:
 * exactly one of two writers continuing the same checkpoint wins, the other gets
 * `CHECKPOINT_CONFLICT`.
 *
 * Saves and lease calls are group-committed: while one group is being written, the calls asked
 * for meanwhile (of any threads) wait, then go together: the saves as one statement (one
 * transaction, one commit, one round trip), the leases taken and given up as one statement each
 * beside it; each promise settles once its own commit is over, and a refused checkpoint fails
 * alone. A thread's saves and lease calls are written in the order they were asked for
 * (decisions 0018 and 0029). The statements of these paths are named, so each connection
 * prepares them once.
 */
export class PostgresCheckpointStore implements CheckpointStore {
  /** Schema version this package writes (rows of `<schema>.migrations`). */
  static readonly schemaVersion = SCHEMA_VERSION;
  /** The PostgreSQL schema holding the store's tables. */
  readonly schema: string;
  readonly #store: StoreIdentity;
  readonly #pool: Pool;
  readonly #ownsPool: boolean;
  readonly #sql: Statements;
  readonly #group: GroupCommit<GroupWrite, WriteResult>;
  /**
   * Inbox reads, grouped as saves are: a run reads its thread's inbox before each model call, and
   * a thousand threads doing so would each cost the server a query of its own (decision 0036).
   */
  readonly #inboxReads: GroupCommit<string, PostedMessage[]>;
  readonly #leases: LeaseTarget;
  #closed = false;
  #ready: Promise<unknown> | undefined;

  constructor(options: PostgresCheckpointStoreOptions) {
    checkOptions(options);
    this.schema = checkSchema(options.schema);
    this.#store = postgresStore(this.schema);
    this.#sql = statements(this.schema);
    this.#group = new GroupCommit(
      (round) => this.#commitRound(round),
      (write) => (write.kind === 'save' ? write.checkpoint.threadId : write.threadId),
    );
    this.#inboxReads = new GroupCommit(
      (threadIds) => this.#readInboxes(threadIds),
      (threadId) => threadId,
    );
    if (options.pool) {
      this.#pool = options.pool;
      this.#ownsPool = false;
    } else {
      this.#pool = new pg.Pool({
        connectionString: options.connectionString,
        max: options.maxConnections ?? 10,
      });
      this.#ownsPool = true;
      // An idle connection the server dropped must not crash the process: the next call opens a
      // new one, or fails with STORE_DATABASE.
      this.#pool.on('error', () => {});
    }
    this.#leases = { pool: this.#pool, sql: this.#sql, schema: this.schema };
  }

  /**
   * Creates the schema or brings it to this package's version; safe to call from many processes
   * at once (they queue on an advisory lock). Every other method runs it first when it has not
   * run yet, so calling it is optional: call it at start-up to fail early.
   */
  async migrate(): Promise<MigrationResult> {
    this.#ensureOpen('migrate');
    try {
      const result = await applyMigrations(this.#pool, this.schema, MIGRATIONS);
      this.#ready ??= Promise.resolve();
      return result;
    } catch (error) {
      throw translateError(error, this.schema, 'migrate');
    }
  }

  async save(checkpoint: Checkpoint): Promise<void> {
    this.#ensureOpen('save');
    await this.#group.add({
      kind: 'save',
      checkpoint: encodeCheckpoint(checkpoint, this.#store, { attachments: true }),
    });
  }

  async load(threadId: string, checkpointId?: string): Promise<StoredThread | undefined> {
    this.#ensureOpen('load');
    checkString('threadId', threadId);
    if (checkpointId !== undefined) checkString('checkpointId', checkpointId);
    return this.#run('load', () => this.#read(threadId, checkpointId));
  }

  async list(threadId: string): Promise<CheckpointInfo[]> {
    this.#ensureOpen('list');
    checkString('threadId', threadId);
    return this.#run('list', async () => {
      const { rows } = await query<CheckpointRow>(this.#pool, this.#sql.listCheckpoints, [
        threadId,
      ]);
      return rows.map((row) => checkpointInfo(threadId, row));
    });
  }

  async listStates(threadId: string): Promise<StoredState[]> {
    this.#ensureOpen('listStates');
    checkString('threadId', threadId);
    return this.#run('listStates', async () => {
      const { rows } = await query<StoredCheckpointRow>(this.#pool, this.#sql.listStates, [
        threadId,
      ]);
      return rows.map((row) => decodeStoredState(threadId, row, this.#store));
    });
  }

  async listThreads(): Promise<ThreadInfo[]> {
    this.#ensureOpen('listThreads');
    return this.#run('listThreads', async () => {
      const { rows } = await query<ThreadListRow>(this.#pool, this.#sql.listThreads);
      return rows.map(threadInfo);
    });
  }

  async listWakes(): Promise<StoredWake[]> {
    this.#ensureOpen('listWakes');
    return this.#run('listWakes', async () => {
      const { rows } = await query<StoredWake>(this.#pool, this.#sql.listWakes);
      return rows;
    });
  }

  async listWaiting(event: string): Promise<string[]> {
    this.#ensureOpen('listWaiting');
    checkString('event', event);
    return this.#run('listWaiting', async () => {
      const { rows } = await query<{ thread_id: string }>(this.#pool, this.#sql.listWaiting, [
        event,
      ]);
      return rows.map((row) => row.thread_id);
    });
  }

  async delete(threadId: string): Promise<boolean> {
    this.#ensureOpen('delete');
    checkString('threadId', threadId);
    return this.#run('delete', async () => {
      const { rows } = await query<{ digest: string }>(this.#pool, this.#sql.usedDigests, [
        threadId,
      ]);
      const deleted = await deleteThread(this.#pool, this.#sql, threadId);
      // Its uses went with it; then the attachments no thread uses go (see dropUnused).
      await dropUnused(
        this.#pool,
        this.#sql,
        rows.map((row) => row.digest),
      );
      return deleted;
    });
  }

  /**
   * The bytes of an attachment a message of `threadId` refers to (or a message of the thread a
   * fork continues, below the fork point); undefined otherwise.
   */
  async readAttachment(threadId: string, digest: string): Promise<Uint8Array | undefined> {
    this.#ensureOpen('readAttachment');
    checkString('threadId', threadId);
    checkString('digest', digest);
    return this.#run('readAttachment', async () => {
      const { rows } = await query<{ bytes: Uint8Array }>(this.#pool, this.#sql.attachmentBytes, [
        threadId,
        digest,
      ]);
      const bytes = rows[0]?.bytes;
      // pg reads bytea as a Buffer: the contract's type is a plain Uint8Array.
      return bytes && new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    });
  }

  async prune(threadId: string, options: { keepLast: number }): Promise<number> {
    const keepLast = checkKeepLast(options?.keepLast);
    this.#ensureOpen('prune');
    checkString('threadId', threadId);
    return this.#run('prune', async () => {
      const { rows } = await query<{ removed: number }>(this.#pool, this.#sql.prune, [
        threadId,
        keepLast,
      ]);
      return rows[0]?.removed ?? 0;
    });
  }

  /**
   * Takes or renews the thread's lease; of several pools or processes asking at once exactly one
   * gets a free lease. Goes with the group commit: the leases of one round are one statement.
   */
  async acquireLease(threadId: string, lease: LeaseRequest): Promise<boolean> {
    this.#ensureOpen('acquireLease');
    checkLeaseRequest(threadId, lease);
    return (await this.#group.add({ kind: 'acquireLease', threadId, lease })) === true;
  }

  /** Goes with the group commit, like `acquireLease`. */
  async releaseLease(threadId: string, owner: string): Promise<void> {
    this.#ensureOpen('releaseLease');
    checkString('threadId', threadId);
    checkString('owner', owner);
    await this.#group.add({ kind: 'releaseLease', threadId, owner });
  }

  /**
   * Ends the pool the store opened from a connection string; a pool passed in stays open (its
   * owner ends it). Either way the store refuses calls from now on. Idempotent.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    // Saves asked for before closing are written (or refused) first.
    await this.#group.drain();
    await this.#inboxReads.drain();
    if (this.#ownsPool) await this.#pool.end();
  }

  #ensureOpen(operation: string): void {
    if (this.#closed) throw storeClosed(this.#store, operation);
  }

  async #run<T>(operation: string, work: () => Promise<T>): Promise<T> {
    try {
      await this.#migrated();
      return await work();
    } catch (error) {
      throw translateError(error, this.schema, operation);
    }
  }

  #migrated(): Promise<unknown> {
    if (!this.#ready) {
      const ready = applyMigrations(this.#pool, this.schema, MIGRATIONS);
      this.#ready = ready;
      // A failed migration is tried again by the next call (the server may be back by then).
      ready.catch(() => {
        if (this.#ready === ready) this.#ready = undefined;
      });
    }
    return this.#ready;
  }

  /** One round of the group commit, once the schema is ready (see `writeRound`). */
  async #commitRound(round: readonly GroupWrite[]): Promise<readonly Outcome<WriteResult>[]> {
    try {
      await this.#migrated();
    } catch (error) {
      return round.map((write) => ({ refusal: translateError(error, this.schema, write.kind) }));
    }
    return writeRound(round, {
      saves: async (checkpoints) =>
        (await this.#saveRound(checkpoints)).map((refusal) =>
          refusal === undefined ? { value: undefined } : { refusal },
        ),
      acquires: (requests) => acquireLeases(this.#leases, requests),
      releases: (requests) => releaseLeases(this.#leases, requests),
    });
  }

  /**
   * Checkpoints of distinct threads: per checkpoint, `undefined` once it is durable or the error
   * that refused it. A checkpoint alone takes the one-statement path it always took. Several go
   * as one `saveGroup` statement; those it could not settle (a first checkpoint whose thread
   * another writer created, a fenced one that found no lease row) then take the slow path, side
   * by side, and so does a fork's first checkpoint, whose row needs the origin's. When the
   * server refused the statement itself (a constraint one checkpoint broke), nothing of it was
   * written, and each checkpoint is tried alone so that only the culprit fails.
   */
  async #saveRound(round: readonly EncodedCheckpoint[]): Promise<readonly unknown[]> {
    if (round.length === 0) return [];
    if (round.length === 1) return [await this.#refusal(this.#saveOne(round[0]!))];
    const grouped = round.filter(isPlain);
    let rows: GroupHeadRow[] = [];
    try {
      if (grouped.length > 0)
        ({ rows } = await query<GroupHeadRow>(
          this.#pool,
          this.#sql.saveGroup,
          groupValues(grouped),
        ));
    } catch (error) {
      if (!isStatementRefusal(error)) {
        const refusal = translateError(error, this.schema, 'save');
        return round.map(() => refusal);
      }
      return Promise.all(round.map((checkpoint) => this.#refusal(this.#saveOne(checkpoint))));
    }
    let g = 0;
    const heads = round.map((c) => (isPlain(c) ? headOf(rows[g++]) : undefined));
    return Promise.all(
      round.map((checkpoint, i) =>
        this.#refusal(
          (async () => {
            if (this.#settleHead(checkpoint, heads[i])) return;
            await this.#saveSlowly(checkpoint);
          })(),
        ),
      ),
    );
  }

  /** `undefined` when `saving` resolves, the translated error when it rejects. */
  #refusal(saving: Promise<void>): Promise<unknown> {
    return saving.then(
      () => undefined,
      (error: unknown) => translateError(error, this.schema, 'save'),
    );
  }

  async #saveOne(checkpoint: EncodedCheckpoint): Promise<void> {
    if (isPlain(checkpoint) && (await this.#saveOnHead(checkpoint))) return;
    await this.#saveSlowly(checkpoint);
  }

  #saveSlowly(checkpoint: EncodedCheckpoint): Promise<void> {
    return transaction(this.#pool, 'BEGIN', (client) => this.#write(client, checkpoint));
  }

  /** Parameters of `saveOnHead` (`first`: the thread id) and `appendCheckpoint` (its key). */
  #values(checkpoint: EncodedCheckpoint, first: string | number): unknown[] {
    const { from } = checkpoint;
    return [
      first,
      from.messages,
      checkpoint.messages,
      from.log,
      checkpoint.log,
      checkpoint.id,
      checkpoint.sequence,
      checkpoint.parentId,
      checkpoint.createdAt,
      checkpoint.status,
      checkpoint.step,
      checkpoint.currentNodeId,
      from.messages + checkpoint.messages.length,
      from.log + checkpoint.log.length,
      checkpoint.state,
      checkpoint.workflowId,
      checkpoint.workflowVersion,
      checkpoint.wakeAt,
      checkpoint.waitsFor,
    ];
  }

  /**
   * The common case, a thread that exists, in one round trip. False when the thread does not
   * exist yet (its first checkpoint takes the slower path that creates it), or when a checkpoint
   * naming its owner found no lease row (the slower path's fence settles whether one is being
   * taken at this moment). A fork's first checkpoint never saves here (nor in `saveGroup`): it
   * names no parent, and a stored thread always has a latest checkpoint, so it is refused as any
   * first checkpoint of a taken id; a new thread's goes to `#write`, which reads `forkOf`.
   */
  async #saveOnHead(checkpoint: EncodedCheckpoint): Promise<boolean> {
    const { owner } = checkpoint;
    const values = this.#values(checkpoint, checkpoint.threadId);
    if (owner !== undefined) values.push(owner);
    const { rows } = await query<LeasedThreadRow>(
      this.#pool,
      owner === undefined ? this.#sql.saveOnHead : this.#sql.saveOnHeadLeased,
      values,
    );
    return this.#settleHead(checkpoint, rows[0]);
  }

  /**
   * What a one-statement save found: true when it saved; false when the slow path must decide (no
   * thread row yet, or a fenced checkpoint that saw no lease row); throws the refusal otherwise.
   */
  #settleHead(checkpoint: EncodedCheckpoint, head: LeasedThreadRow | undefined): boolean {
    const { owner } = checkpoint;
    if (!head) return false;
    if (head.saved === 1) return true;
    if (owner !== undefined) {
      // No lease row in this statement's snapshot: the slow path decides.
      if (head.lease_owner === null) return false;
      checkLeaseOwner(
        checkpoint.threadId,
        { owner: head.lease_owner, expiresAt: head.lease_expires_at! },
        owner,
      );
    }
    checkContinues(checkpoint, head);
    // The statement and checkContinues apply one rule; reaching here means they disagreed.
    throw storeCorrupt(
      this.#store,
      `thread ${checkpoint.threadId} refused checkpoint ${checkpoint.id} for no reason the store knows`,
    );
  }

  async #lockThread(client: PoolClient, threadId: string): Promise<ThreadRow | undefined> {
    const { rows } = await query<ThreadRow>(client, this.#sql.lockThread, [threadId]);
    return rows[0];
  }

  /**
   * The fence of the slow path, before the thread's row is locked (so a save waiting here holds
   * no row an `acquireLease` or a fast save could be waiting for). A lease row found is locked
   * FOR SHARE until commit. None found may be one an `acquireLease` in flight is inserting: wait
   * for those to commit (and keep new ones out until this transaction ends), then look again
   * with a new snapshot.
   */
  async #fence(client: PoolClient, threadId: string, owner: string): Promise<void> {
    const sql = this.#sql;
    let held = (await query<HeldLease>(client, sql.lockLease, [threadId])).rows[0];
    if (held === undefined) {
      await query(client, sql.waitForLeaseTakers, [threadId]);
      held = (await query<HeldLease>(client, sql.lockLease, [threadId])).rows[0];
    }
    checkLeaseOwner(threadId, held, owner);
  }

  /**
   * A fork's origin checkpoint, its thread's row locked FOR KEY SHARE until commit (a delete of
   * the origin waits, or has left nothing to find); undefined when either is not stored.
   */
  async #lockForkBase(client: PoolClient, origin: ForkOrigin): Promise<ForkBase | undefined> {
    const { rows } = await query<ForkBase>(client, this.#sql.lockForkBase, [
      origin.threadId,
      origin.checkpointId,
    ]);
    return rows[0];
  }

  /**
   * Creates the thread's row; a fork's starts where its origin's conversation ended, sharing the
   * rows before. Undefined when another transaction created the thread first.
   */
  async #insertThread(
    client: PoolClient,
    checkpoint: EncodedCheckpoint,
    base: ForkBase | undefined,
  ): Promise<number | undefined> {
    try {
      const { rows } = await query<{ id: number }>(client, this.#sql.insertThread, [
        checkpoint.threadId,
        checkpoint.workflowId,
        checkpoint.workflowVersion,
        checkpoint.status,
        checkpoint.step,
        checkpoint.createdAt,
        checkpoint.id,
        base?.id ?? null,
        base?.message_count ?? 0,
        base?.log_count ?? 0,
      ]);
      return rows[0]?.id;
    } catch (error) {
      // The origin's lock keeps it from being deleted before commit; should it go regardless,
      // the key refuses the fork, and the fork is refused as one of a checkpoint not stored.
      const { forkOf } = checkpoint;
      if (forkOf && errorCode(error) === FOREIGN_KEY_VIOLATION)
        throw new CheckpointNotFoundError(forkOf.threadId, forkOf.checkpointId);
      throw error;
    }
  }

  async #write(client: PoolClient, checkpoint: EncodedCheckpoint): Promise<void> {
    const { threadId, forkOf } = checkpoint;
    if (checkpoint.owner !== undefined) await this.#fence(client, threadId, checkpoint.owner);
    let thread = await this.#lockThread(client, threadId);
    // Only a thread not stored yet can start as a fork; for one that is, the origin is moot.
    const base = forkOf && !thread ? await this.#lockForkBase(client, forkOf) : undefined;
    checkForkContinues(checkpoint, thread, base);
    if (checkpoint.inboxTaken !== null) {
      // Decision 0036: checked under the thread's row lock, before anything is written.
      const extent = thread
        ? (await query<{ taken: number; last: number }>(client, this.#sql.inboxExtent, [thread.id]))
            .rows[0]
        : undefined;
      checkInboxTaken(threadId, checkpoint.inboxTaken, extent ?? { taken: 0, last: 0 });
    }
    let key = thread?.id;
    if (key === undefined) {
      key = await this.#insertThread(client, checkpoint, base);
      // A fork reads the attachments of the messages it continues, and no later ones.
      if (key !== undefined && base)
        await query(client, this.#sql.copyUses, [key, base.id, base.message_count]);
      if (key === undefined) {
        // Another writer created the thread between our read and insert, and committed: check
        // against what it stored (a first checkpoint cannot continue it, so this refuses).
        thread = await this.#lockThread(client, threadId);
        checkContinues(checkpoint, thread);
        key = thread!.id;
      }
    }
    await writeAttachments(client, this.#sql, key, checkpoint);
    await query(client, this.#sql.appendCheckpoint, this.#values(checkpoint, key));
    if (checkpoint.inboxTaken !== null)
      await query(client, this.#sql.setInboxTaken, [key, checkpoint.inboxTaken]);
  }

  /** Decision 0036: one transaction holding the thread's row, so posts are numbered in order. */
  async postMessage(
    threadId: string,
    post: InboxPost,
  ): Promise<{ seq: number; duplicate: boolean }> {
    this.#ensureOpen('postMessage');
    checkString('threadId', threadId);
    checkInboxPost(post);
    const message = inboxJson(post.message);
    return this.#run('postMessage', () =>
      transaction(this.#pool, 'BEGIN', async (client) => {
        const thread = await this.#lockThread(client, threadId);
        if (!thread) throw new CheckpointNotFoundError(threadId);
        const known = await query<{ seq: number }>(client, this.#sql.inboxSeqOf, [
          thread.id,
          post.id,
        ]);
        if (known.rows[0]) return { seq: known.rows[0].seq, duplicate: true };
        const { rows } = await query<{ seq: number }>(client, this.#sql.insertPost, [
          thread.id,
          post.id,
          post.mode,
          post.postedAt,
          message,
        ]);
        return { seq: rows[0]!.seq, duplicate: false };
      }),
    );
  }

  async pendingMessages(threadId: string): Promise<PostedMessage[]> {
    this.#ensureOpen('pendingMessages');
    checkString('threadId', threadId);
    return this.#run('pendingMessages', () => this.#inboxReads.add(threadId));
  }

  /** The pending posts of several threads in one query, each thread's in seq order. */
  async #readInboxes(threadIds: readonly string[]): Promise<Outcome<PostedMessage[]>[]> {
    const { rows } = await query<InboxRow & { threadId: string }>(
      this.#pool,
      this.#sql.pendingMessages,
      [threadIds],
    );
    const byThread = new Map<string, PostedMessage[]>();
    for (const row of rows) {
      const posts = byThread.get(row.threadId);
      if (posts) posts.push(postedFromRow(row));
      else byThread.set(row.threadId, [postedFromRow(row)]);
    }
    return threadIds.map((id) => ({ value: byThread.get(id) ?? [] }));
  }

  async #read(
    threadId: string,
    checkpointId: string | undefined,
  ): Promise<StoredThread | undefined> {
    const sql = this.#sql;
    const found =
      checkpointId === undefined
        ? await query<LoadedRow>(this.#pool, sql.latestCheckpoint, [threadId])
        : await query<LoadedRow>(this.#pool, sql.namedCheckpoint, [threadId, checkpointId]);
    const row = found.rows[0];
    if (!row) return undefined;
    return decodeStoredThread(threadId, row, row, this.#store);
  }
}
