import type { UIChunk } from '../ui-chunk.js';
import { chunkOf, isMarker, type ReadAttachment } from './attachment-marker.js';
import type { PoolConnection } from './parts-pool.js';
import type { CurrentRun, UIPartsLog } from './ui-parts-log.js';

/**
 * Follows runs recorded by any process: one LISTEN connection for the handler, opened on first
 * use, and per thread the readers to wake when its rows grow.
 */
export class StoredRuns {
  readonly #log: UIPartsLog;
  readonly #read: ReadAttachment;
  readonly #waiting = new Map<string, Set<() => void>>();
  #connection: Promise<PoolConnection> | undefined;

  /** `read` reads a thread's attachment, for the log's `file` parts kept by digest. */
  constructor(log: UIPartsLog, read: ReadAttachment) {
    this.#log = log;
    this.#read = read;
  }

  #listen(): Promise<PoolConnection> {
    this.#connection ??= this.#log.listen((threadId) => {
      for (const wake of this.#waiting.get(threadId) ?? []) wake();
    });
    const connection = this.#connection;
    connection.catch(() => {
      if (this.#connection === connection) this.#connection = undefined;
    });
    return connection;
  }

  /**
   * The thread's current run, replayed from its `start` and followed to its end, as a stream of
   * parts; `undefined` when no run of the thread goes on, or (`mine` says) none for this caller.
   */
  async follow(
    threadId: string,
    mine: (run: CurrentRun) => boolean,
  ): Promise<ReadableStream<UIChunk> | undefined> {
    const first = await this.#log.current(threadId);
    if (first === undefined || !mine(first)) return undefined;
    await this.#listen();
    // Read after listening, so no row written from now on goes unnoticed.
    const current = await this.#log.current(threadId);
    if (current === undefined || !mine(current)) return undefined;
    const { runId } = current;
    const log = this.#log;
    const readAttachment = this.#read;
    const waiting = this.#waiting;
    let next = 0;
    let reading = false;
    let again = false;
    let wake: (() => void) | undefined;
    const stop = () => {
      const set = waiting.get(threadId);
      if (!wake || !set) return;
      set.delete(wake);
      if (set.size === 0) waiting.delete(threadId);
    };
    return new ReadableStream<UIChunk>({
      start(controller) {
        let closed = false;
        const read = async (): Promise<void> => {
          if (reading) {
            again = true;
            return;
          }
          reading = true;
          try {
            do {
              again = false;
              for (const part of await log.read(runId, next)) {
                if (part === null) {
                  closed = true;
                  stop();
                  controller.close();
                  return;
                }
                const chunk = isMarker(part) ? await chunkOf(part, threadId, readAttachment) : part;
                // A file whose message the thread has not saved yet: read again from here
                // when the log grows (by the end at the latest, the part is readable).
                if (chunk === undefined) break;
                next++;
                controller.enqueue(chunk);
              }
            } while (again && !closed);
          } catch (error) {
            closed = true;
            stop();
            controller.error(error);
          } finally {
            reading = false;
          }
        };
        wake = () => void read();
        const set = waiting.get(threadId) ?? new Set();
        set.add(wake);
        waiting.set(threadId, set);
        void read();
      },
      cancel: stop,
    });
  }

  /** Closes the LISTEN connection. */
  async close(): Promise<void> {
    const connection = this.#connection;
    this.#connection = undefined;
    this.#waiting.clear();
    const open = await connection?.catch(() => undefined);
    if (!open) return;
    // Handed back to the pool clean, so the pool's own end closes it.
    const error = await open.query('unlisten *').then(
      () => undefined,
      (failed: unknown) => (failed instanceof Error ? failed : new Error(String(failed))),
    );
    open.release(error);
  }
}
