import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';
import type { SqliteCheckpointStoreOptions } from './store-options.js';
import { DRIVER, openStore } from './test-support/driver.js';

const dir = mkdtempSync(join(tmpdir(), 'skein-sqlite-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function refusal(options: unknown): unknown {
  try {
    new SqliteCheckpointStore(options as SqliteCheckpointStoreOptions).close();
  } catch (error) {
    return error;
  }
  throw new Error(`${JSON.stringify(options)} was accepted`);
}

describe('SqliteCheckpointStore options', () => {
  it.each([
    2 ** 31,
    1e10,
    Number.MAX_SAFE_INTEGER,
    -1,
    1.5,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    '100',
    null,
  ])(
    'refuses busyTimeoutMs %s as INVALID_ARGUMENT naming the allowed range, creating no file',
    (busyTimeoutMs) => {
      const filename = join(dir, 'busy.db');
      const error = refusal({ filename, busyTimeoutMs });
      expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', argument: 'busyTimeoutMs' });
      expect((error as Error).message).toMatch(
        /busyTimeoutMs must be an integer from 0 to 2147483647/,
      );
      expect(readdirSync(dir)).not.toContain('busy.db');
    },
  );

  it('accepts the ends of the busyTimeoutMs range', async () => {
    for (const busyTimeoutMs of [0, 2 ** 31 - 1]) {
      const filename = join(dir, `ends-${busyTimeoutMs}.db`);
      const store = openStore({ filename, busyTimeoutMs });
      expect(await store.listThreads()).toEqual([]);
      store.close();
    }
  });

  it.each([
    [undefined, 'options'],
    ['threads.db', 'options'],
    [{}, 'filename'],
    [{ filename: '' }, 'filename'],
    [{ filename: 42 }, 'filename'],
    [{ filename: join(dir, 'a\0b.db') }, 'filename'],
    [{ filename: ':memory:', synchronous: 'off' }, 'synchronous'],
    [{ filename: ':memory:', verifyOnOpen: 'yes' }, 'verifyOnOpen'],
    [{ filename: ':memory:', driver: 'sqlite3' }, 'driver'],
    [{ filename: ':memory:', driver: null }, 'driver'],
  ])('refuses %j as INVALID_ARGUMENT naming %s', (options, argument) => {
    expect(refusal(options)).toMatchObject({ code: 'INVALID_ARGUMENT', argument });
  });

  it('names the driver it runs on', () => {
    const store = openStore({ filename: ':memory:' });
    expect(store.driver).toBe(DRIVER);
    store.close();
    expect(refusal({ filename: ':memory:', driver: 'better_sqlite3' }) as Error).toMatchObject({
      message: expect.stringMatching(
        /driver must be 'better-sqlite3' or 'node:sqlite', got "better_sqlite3"/,
      ),
    });
  });

  it('refuses a keepLast that is not an integer from 1 to 2^53-1 as INVALID_ARGUMENT', async () => {
    const store = openStore({ filename: join(dir, 'prune.db') });
    for (const keepLast of [0, 1.5, Number.NaN, 1e300, 2 ** 53, '3'])
      await expect(
        store.prune('t', { keepLast: keepLast as number }),
        String(keepLast),
      ).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        argument: 'keepLast',
        message: expect.stringMatching(/keepLast must be an integer from 1 to 9007199254740991/),
      });
    expect(await store.prune('t', { keepLast: Number.MAX_SAFE_INTEGER })).toBe(0);
    store.close();
  });
});
