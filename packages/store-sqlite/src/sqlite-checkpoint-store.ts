import { resolve } from 'node:path';
import {
  type Checkpoint,
  type CheckpointInfo,
  type CheckpointStore,
  checkInboxPost,
  checkKeepLast,
  checkpointInfo,
  checkString,
  decodeStoredState,
  decodeStoredThread,
  encodeCheckpoint,
  inboxJson,
  postedFromRow,
  type StoredState,
  type StoredThread,
  type StoredWake,
  type StoreIdentity,
  storeClosed,
  type ThreadInfo,
  threadInfo,
} from '@skein/core/store-kit';
import {
  CheckpointNotFoundError,
  checkLeaseRequest,
  type InboxPost,
  type LeaseRequest,
  type PostedMessage,
} from '@skein/spec';
import { chooseDriver } from './driver/choose-driver.js';
import type { SqliteConnection, SqliteDriver, SqliteDriverName } from './driver/connection.js';
import { Transactions } from './driver/transactions.js';
import { sqliteStore } from './errors/store-errors.js';
import { GroupCommit } from './group-commit.js';
import { type GroupWrite, type WriteResult, writeGroup } from './group-write.js';
import { openDatabase } from './open/open-database.js';
import { SCHEMA_VERSION } from './schema/migrations.js';
import { readBodies, releaseForks } from './shared-conversation.js';
import { prepareStatements, type Statements } from './statements.js';
import { checkOptions, type SqliteCheckpointStoreOptions } from './store-options.js';
import { translateError } from './translate-error.js';

/**
 * A `CheckpointStore` in one SQLite file (WAL mode), on better-sqlite3 or node:sqlite (the same
 * SQL and transactions on both, see `driver/`). Each message and log entry is a row of its own,
 * written once; a checkpoint row holds the thread state and how many messages and log entries it
 * covers, so saving costs the same at step 10 and step 10,000 and a thread's conversation at any
 * checkpoint is a range read.
 *
 * Saves and lease calls are group-committed: those asked for in one turn of the event loop, of
 * any threads, are written in call order in one transaction as the turn ends, each under a
 * savepoint of its own (a refused one is undone alone), and each promise settles after that
 * commit. Every other operation first writes the calls still waiting, so operations take effect
 * in the order they were called (decisions 0018 and 0029).
 */
export class SqliteCheckpointStore implements CheckpointStore {
  /** Schema version this package writes (`PRAGMA user_version`). */
  static readonly schemaVersion = SCHEMA_VERSION;
  /** The absolute path of the database file, or `':memory:'`. */
  readonly filename: string;
  /** The SQLite library this store runs on (the `driver` option, or the one chosen by default). */
  readonly driver: SqliteDriverName;
  readonly #store: StoreIdentity;
  readonly #busyTimeoutMs: number;
  readonly #driver: SqliteDriver;
  #db: SqliteConnection | undefined;
  readonly #sql: Statements;
  readonly #tx: Transactions;
  readonly #group: GroupCommit<GroupWrite, WriteResult>;

  constructor(options: SqliteCheckpointStoreOptions) {
    checkOptions(options);
    this.filename = options.filename === ':memory:' ? ':memory:' : resolve(options.filename);
    this.#store = sqliteStore(this.filename);
    this.#busyTimeoutMs = options.busyTimeoutMs ?? 5_000;
    this.#driver = chooseDriver(options.driver, this.filename);
    this.driver = this.#driver.name;
    const db = openDatabase({
      driver: this.#driver,
      filename: this.filename,
      busyTimeoutMs: this.#busyTimeoutMs,
      synchronous: options.synchronous ?? 'full',
      verify: options.verifyOnOpen ?? true,
    });
    this.#db = db;
    try {
      this.#sql = prepareStatements(db);
      this.#tx = new Transactions(db);
    } catch (error) {
      db.close();
      throw this.#translate(error, 'open');
    }
    const writer = {
      sql: this.#sql,
      tx: this.#tx,
      store: this.#store,
      translate: (error: unknown, operation: string) => this.#translate(error, operation),
    };
    this.#group = new GroupCommit((group) => writeGroup(writer, group));
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
    return this.#run('load', () => this.#tx.deferred(() => this.#read(threadId, checkpointId)));
  }

  async list(threadId: string): Promise<CheckpointInfo[]> {
    this.#ensureOpen('list');
    checkString('threadId', threadId);
    return this.#run('list', () =>
      this.#sql.listCheckpoints.all(threadId).map((row) => checkpointInfo(threadId, row)),
    );
  }

  async listStates(threadId: string): Promise<StoredState[]> {
    this.#ensureOpen('listStates');
    checkString('threadId', threadId);
    return this.#run('listStates', () =>
      this.#sql.listStates
        .all(threadId)
        .map((row) => decodeStoredState(threadId, row, this.#store)),
    );
  }

  async listThreads(): Promise<ThreadInfo[]> {
    this.#ensureOpen('listThreads');
    return this.#run('listThreads', () => this.#sql.listThreads.all().map(threadInfo));
  }

  async listWakes(): Promise<StoredWake[]> {
    this.#ensureOpen('listWakes');
    return this.#run('listWakes', () => this.#sql.listWakes.all());
  }

  async listWaiting(event: string): Promise<string[]> {
    this.#ensureOpen('listWaiting');
    checkString('event', event);
    return this.#run('listWaiting', () => this.#sql.listWaiting.all(event));
  }

  async delete(threadId: string): Promise<boolean> {
    this.#ensureOpen('delete');
    checkString('threadId', threadId);
    return this.#run('delete', () => this.#tx.immediate(() => this.#remove(threadId)));
  }

  /** Decision 0036: after the writes asked for before it, in a transaction of its own. */
  async postMessage(
    threadId: string,
    post: InboxPost,
  ): Promise<{ seq: number; duplicate: boolean }> {
    this.#ensureOpen('postMessage');
    checkString('threadId', threadId);
    checkInboxPost(post);
    const message = inboxJson(post.message);
    return this.#run('postMessage', () =>
      this.#tx.immediate(() => {
        const sql = this.#sql;
        const thread = sql.thread.get(threadId);
        if (!thread) throw new CheckpointNotFoundError(threadId);
        const known = sql.inboxSeqOf.get(thread.id, post.id);
        if (known !== undefined) return { seq: known, duplicate: true };
        sql.postMessage.run(thread.id, post.id, post.mode, post.postedAt, message, thread.id);
        return { seq: sql.inboxSeqOf.get(thread.id, post.id)!, duplicate: false };
      }),
    );
  }

  async pendingMessages(threadId: string): Promise<PostedMessage[]> {
    this.#ensureOpen('pendingMessages');
    checkString('threadId', threadId);
    return this.#run('pendingMessages', () =>
      this.#sql.pendingMessages.all(threadId).map(postedFromRow),
    );
  }

  async prune(threadId: string, options: { keepLast: number }): Promise<number> {
    const keepLast = checkKeepLast(options?.keepLast);
    this.#ensureOpen('prune');
    checkString('threadId', threadId);
    return this.#run('prune', () => this.#tx.immediate(() => this.#dropOld(threadId, keepLast)));
  }

  /**
   * Takes or renews the thread's lease in one statement under SQLite's write lock, so of several
   * connections or processes asking at once exactly one gets a free lease. Written with the
   * turn's group, in call order; resolves once that commit is over.
   */
  async acquireLease(threadId: string, lease: LeaseRequest): Promise<boolean> {
    this.#ensureOpen('acquireLease');
    checkLeaseRequest(threadId, lease);
    return (await this.#group.add({ kind: 'acquireLease', threadId, lease })) === true;
  }

  /** Written with the turn's group, in call order, like `acquireLease`. */
  async releaseLease(threadId: string, owner: string): Promise<void> {
    this.#ensureOpen('releaseLease');
    checkString('threadId', threadId);
    checkString('owner', owner);
    await this.#group.add({ kind: 'releaseLease', threadId, owner });
  }

  /**
   * The bytes of an attachment a message of `threadId` refers to (or a message of the thread a
   * fork continues, below the fork point); undefined otherwise.
   */
  async readAttachment(threadId: string, digest: string): Promise<Uint8Array | undefined> {
    this.#ensureOpen('readAttachment');
    checkString('threadId', threadId);
    checkString('digest', digest);
    return this.#run('readAttachment', () => {
      const bytes = this.#sql.attachmentBytes.get(digest, threadId);
      // better-sqlite3 reads a BLOB as a Buffer: the contract's type is a plain Uint8Array.
      return bytes && new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    });
  }

  /** Closes the connection (SQLite then folds the WAL into the file). Idempotent. */
  close(): void {
    // Saves asked for before closing are written (or refused) first, as if the turn had ended.
    if (this.#db?.isOpen) this.#group.flush();
    const db = this.#db;
    this.#db = undefined;
    db?.close();
  }

  #ensureOpen(operation: string): void {
    if (!this.#db?.isOpen) throw storeClosed(this.#store, operation);
  }

  #run<T>(operation: string, work: () => T): T {
    // Calls asked for earlier go first: a load sees the saves and leases they wrote.
    this.#group.flush();
    try {
      return work();
    } catch (error) {
      throw this.#translate(error, operation);
    }
  }

  #translate(error: unknown, operation: string): unknown {
    return translateError(error, {
      driver: this.#driver,
      filename: this.filename,
      operation,
      busyTimeoutMs: this.#busyTimeoutMs,
    });
  }

  #read(threadId: string, checkpointId: string | undefined): StoredThread | undefined {
    const sql = this.#sql;
    const thread = sql.thread.get(threadId);
    if (!thread) return undefined;
    const row =
      checkpointId === undefined
        ? sql.latestCheckpoint.get(thread.id)
        : sql.namedCheckpoint.get(thread.id, checkpointId);
    if (!row) return undefined;
    return decodeStoredThread(
      threadId,
      row,
      readBodies(sql, thread, { messages: row.message_count, log: row.log_count }),
      this.#store,
    );
  }

  #remove(threadId: string): boolean {
    const sql = this.#sql;
    // The lease goes too, even for a thread that was leased but never saved.
    sql.deleteLease.run(threadId);
    const thread = sql.thread.get(threadId);
    if (!thread) return false;
    releaseForks(sql, thread);
    // Its attachments go unless another thread (a fork included) uses them.
    sql.deleteUnusedAttachments.run(thread.id, thread.id);
    sql.deleteUses.run(thread.id);
    sql.deleteInbox.run(thread.id);
    sql.deleteMessages.run(thread.id);
    sql.deleteLogEntries.run(thread.id);
    sql.deleteCheckpoints.run(thread.id);
    sql.deleteThread.run(thread.id);
    return true;
  }

  #dropOld(threadId: string, keepLast: number): number {
    const sql = this.#sql;
    const thread = sql.thread.get(threadId);
    if (!thread) return 0;
    const oldestKept = sql.nthNewestCheckpoint.get(thread.id, keepLast - 1);
    if (oldestKept === undefined) return 0;
    const { changes } = sql.deleteCheckpointsBefore.run(thread.id, oldestKept);
    if (changes > 0) sql.decrementCheckpoints.run(changes, thread.id);
    return changes;
  }
}
