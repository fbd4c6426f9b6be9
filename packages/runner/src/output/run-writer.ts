import { closeSync, fstatSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { RunFolderError } from '../errors/run-folder-error.js';
import type { ItemResult } from './item-result.js';

interface OpenFile {
  readonly path: string;
  readonly fd: number;
  size: number;
  pending: string;
}

function open(path: string): OpenFile {
  try {
    const fd = openSync(path, 'a');
    return { path, fd, size: fstatSync(fd).size, pending: '' };
  } catch (error) {
    throw new RunFolderError(path, 'cannot be opened for appending', error);
  }
}

function write(file: OpenFile): void {
  if (file.pending === '') return;
  const bytes = Buffer.from(file.pending, 'utf8');
  file.pending = '';
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(file.fd, bytes, done, bytes.length - done);
  } catch (error) {
    throw new RunFolderError(file.path, 'write failed', error);
  }
  file.size += bytes.length;
}

/**
 * Appends results and export lines to the run folder as items finish. Lines finished in the same
 * turn of the event loop are written together: export lines first, then the results, each
 * result carrying the export files' sizes after its batch. A crash can therefore leave export
 * lines without their result (cut away on resume) but never a result without its export lines.
 */
export class RunWriter {
  readonly #results: OpenFile;
  readonly #exports = new Map<string, OpenFile>();
  #scheduled = false;
  #closed = false;
  #failure: unknown;

  constructor(folder: string, resultsFile: string, exportFiles: readonly string[]) {
    this.#results = open(join(folder, resultsFile));
    for (const name of exportFiles) this.#exports.set(name, open(join(folder, name)));
  }

  /** Queues one finished item: its result and its lines per export file. */
  add(result: ItemResult, exportLines: ReadonlyMap<string, readonly string[]>): void {
    if (this.#failure !== undefined) throw this.#failure;
    for (const [name, lines] of exportLines) {
      const file = this.#exports.get(name)!;
      for (const line of lines) file.pending += `${line}\n`;
    }
    // The sizes are filled in at flush time, when they are known.
    this.#results.pending += `${JSON.stringify(result).slice(0, -1)}\u0000`;
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(() => this.#flushSafely());
    }
  }

  /** Writes what is queued now. */
  flush(): void {
    this.#scheduled = false;
    if (this.#closed) return;
    for (const file of this.#exports.values()) write(file);
    const tail =
      this.#exports.size === 0
        ? '}'
        : `,"exportBytes":${JSON.stringify(Object.fromEntries([...this.#exports].map(([n, f]) => [n, f.size])))}}`;
    // Results were queued as JSON without their closing brace, each ended by a NUL.
    this.#results.pending = this.#results.pending.replaceAll('\u0000', `${tail}\n`);
    write(this.#results);
  }

  /** Throws the first write failure, if any happened in a scheduled flush. */
  check(): void {
    if (this.#failure !== undefined) throw this.#failure;
  }

  close(): void {
    if (this.#closed) return;
    this.flush();
    this.#closed = true;
    closeSync(this.#results.fd);
    for (const file of this.#exports.values()) closeSync(file.fd);
  }

  #flushSafely(): void {
    try {
      this.flush();
    } catch (error) {
      this.#failure = error;
    }
  }
}
