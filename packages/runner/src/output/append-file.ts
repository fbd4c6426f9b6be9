import { closeSync, fstatSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { RunnerError } from '../errors/runner-error.js';

/** A file of the run folder that lines are appended to, with what is queued for it. */
export interface AppendFile {
  readonly path: string;
  readonly fd: number;
  /** Bytes in the file. */
  size: number;
  pending: string;
  /** Bytes of `pending`, counted as lines are added. */
  pendingBytes: number;
}

/** Opens `path` for appending (its folder made if needed); `RunnerError` when it cannot be. */
export function openAppend(path: string): AppendFile {
  try {
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(path, 'a');
    return { path, fd, size: fstatSync(fd).size, pending: '', pendingBytes: 0 };
  } catch (error) {
    throw RunnerError.runFolder(path, 'cannot be opened for appending', error);
  }
}

/** Writes what is queued for the file, whole, with as many writes as it takes. */
export function writePending(file: AppendFile): void {
  if (file.pending === '') return;
  const bytes = Buffer.from(file.pending, 'utf8');
  file.pending = '';
  file.pendingBytes = 0;
  writeBytes(file, bytes);
}

/** Appends `bytes` to the file, whole, with as many writes as it takes. */
export function writeBytes(file: AppendFile, bytes: Uint8Array): void {
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(file.fd, bytes, done, bytes.length - done);
  } catch (error) {
    throw RunnerError.runFolder(file.path, 'write failed', error);
  } finally {
    file.size += done;
  }
}

export function closeAppend(file: AppendFile): void {
  closeSync(file.fd);
}
