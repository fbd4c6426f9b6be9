import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { StoreError } from '@skein/spec';
import { expect } from 'vitest';
import type { SqliteConnection } from '../driver/connection.js';
import type { SqliteCheckpointStore } from '../sqlite-checkpoint-store.js';
import { openStore, withRaw } from './driver.js';
import { loopEngine, loopSteps } from './loop-workflow.js';

// Helpers for the tests that open bad files: every refusal must leave the directory as it was.

/** Deterministic noise, so a damaged page is the same damage on every run. */
export function randomBytes(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

/** Each file in `dir` with the SHA-256 of its bytes. */
export function listing(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((name) => [
        name,
        createHash('sha256')
          .update(readFileSync(join(dir, name)))
          .digest('hex'),
      ]),
  );
}

/** Opening must fail with a `StoreError`: returns it. */
export function refusal(filename: string, options: { verifyOnOpen?: boolean } = {}): StoreError {
  let store: SqliteCheckpointStore | undefined;
  try {
    store = openStore({ filename, ...options });
  } catch (error) {
    if (StoreError.isInstance(error)) return error;
    throw error;
  }
  store.close();
  throw new Error(`${filename} was opened`);
}

/**
 * Opening `filename` fails with `code` and names the file, and its directory holds exactly the
 * files it held before, byte for byte: no `-wal`, `-shm` or `-journal` left beside it.
 */
export function expectRefused(
  filename: string,
  code: string,
  options: { verifyOnOpen?: boolean } = {},
): StoreError {
  const dir = join(filename, '..');
  const before = listing(dir);
  const error = refusal(filename, options);
  expect(error.code, error.message).toBe(code);
  expect(error.message).toContain(filename);
  expect(error.details.filename).toBe(filename);
  expect(listing(dir)).toEqual(before);
  return error;
}

/** A Skein database holding a finished 40-round thread, closed (WAL folded into the file). */
export async function skeinDatabase(dir: string): Promise<string> {
  const filename = join(dir, 'threads.db');
  const store = openStore({ filename, synchronous: 'normal' });
  await loopEngine(store, { iterations: 40 }).run('loop', {
    threadId: 't',
    maxSteps: loopSteps(40),
  });
  store.close();
  return filename;
}

/** Works on a file through a plain connection (of the driver under test), as another program would. */
export function raw(filename: string, work: (db: SqliteConnection) => void): void {
  withRaw(filename, work);
}

/** True when the header says WAL mode (file format versions 2 at bytes 18 and 19). */
export function isWalMode(filename: string): boolean {
  const header = readFileSync(filename).subarray(0, 20);
  return header[18] === 2 && header[19] === 2;
}
