import { join } from 'node:path';
import { type AppendFile, closeAppend, openAppend, writePending } from './append-file.js';
import type { ItemResult } from './item-result.js';

interface OpenFile extends AppendFile {
  /** `"<name>":`, for the sizes recorded in each result. */
  readonly key: string;
}

function open(path: string, name: string): OpenFile {
  return { ...openAppend(path), key: `${JSON.stringify(name)}:` };
}

/**
 * Appends results and export lines to the run folder as items finish. Lines finished in the same
 * turn of the event loop are written together: export lines first, then the results, each
 * result carrying the export files' sizes after its own export lines (not after its batch: a
 * resume keeps the results before a torn line, and must cut the exports back to exactly their
 * lines). A crash can therefore leave export lines without their result (cut away on resume)
 * but never a result without its export lines.
 */
export class RunWriter {
  readonly #results: OpenFile;
  readonly #exports = new Map<string, OpenFile>();
  #scheduled = false;
  #closed = false;
  #failure: unknown;

  constructor(folder: string, resultsFile: string, exportFiles: readonly string[]) {
    this.#results = open(join(folder, resultsFile), resultsFile);
    for (const name of exportFiles) this.#exports.set(name, open(join(folder, name), name));
  }

  /** Queues one finished item: its result and its lines per export file. */
  add(result: ItemResult, exportLines: ReadonlyMap<string, readonly string[]>): void {
    if (this.#failure !== undefined) throw this.#failure;
    for (const [name, lines] of exportLines) {
      const file = this.#exports.get(name)!;
      for (const line of lines) {
        file.pending += `${line}\n`;
        file.pendingBytes += Buffer.byteLength(line, 'utf8') + 1;
      }
    }
    let tail = '}\n';
    if (this.#exports.size !== 0) {
      tail = ',"exportBytes":{';
      let first = true;
      for (const file of this.#exports.values()) {
        tail += `${first ? '' : ','}${file.key}${file.size + file.pendingBytes}`;
        first = false;
      }
      tail += '}}\n';
    }
    // A result is an object: its JSON ends with the brace the sizes go before.
    this.#results.pending += `${JSON.stringify(result).slice(0, -1)}${tail}`;
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#flushSafely());
    }
  }

  /** Writes what is queued now. */
  flush(): void {
    this.#scheduled = false;
    // After a failed write, the sizes queued results record are no longer the files' sizes.
    if (this.#closed || this.#failure !== undefined) return;
    try {
      for (const file of this.#exports.values()) writePending(file);
      writePending(this.#results);
    } catch (error) {
      this.#failure = error;
      throw error;
    }
  }

  /** Throws the first write failure, if any happened in a scheduled flush. */
  check(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  /** Writes what is queued and closes the files; throws a write failure, even an earlier one. */
  close(): void {
    if (this.#closed) return;
    try {
      this.flush();
    } finally {
      this.#closed = true;
      closeAppend(this.#results);
      for (const file of this.#exports.values()) closeAppend(file);
    }
    this.check();
  }

  #flushSafely(): void {
    try {
      this.flush();
    } catch {
      // Kept in #failure, thrown by the next add() or check().
    }
  }
}
