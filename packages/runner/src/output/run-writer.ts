import { closeSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { RunnerError } from '../errors/runner-error.js';
import type { ItemResult } from './item-result.js';

interface OpenFile {
  readonly path: string;
  readonly fd: number;
  /** Bytes in the file. */
  size: number;
  pending: string;
  /** Bytes of `pending`, counted as lines are added. */
  pendingBytes: number;
  /** `"<name>":`, for the sizes recorded in each result. */
  readonly key: string;
}

function open(path: string, name: string): OpenFile {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(path, 'a');
    const key = `${JSON.stringify(name)}:`;
    return { path, fd, size: fstatSync(fd).size, pending: '', pendingBytes: 0, key };
  } catch (error) {
    throw RunnerError.runFolder(path, 'cannot be opened for appending', error);
  }
}

function write(file: OpenFile): void {
  if (file.pending === '') return;
  const bytes = Buffer.from(file.pending, 'utf8');
  file.pending = '';
  file.pendingBytes = 0;
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(file.fd, bytes, done, bytes.length - done);
  } catch (error) {
    throw RunnerError.runFolder(file.path, 'write failed', error);
  } finally {
    file.size += done;
  }
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
      for (const file of this.#exports.values()) write(file);
      write(this.#results);
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
      closeSync(this.#results.fd);
      for (const file of this.#exports.values()) closeSync(file.fd);
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
