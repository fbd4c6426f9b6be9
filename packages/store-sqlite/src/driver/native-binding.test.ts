import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../open/open-database.js';
import { unbuiltBetterSqlite3 } from '../test-support/unbuilt-better-sqlite3.js';
import { translateError } from '../translate-error.js';
import { chooseDriver } from './choose-driver.js';
import { isNativeBindingError } from './native-binding.js';

/** The error the `bindings` package itself throws when no build exists, as better-sqlite3 sees it. */
function bindingsError(): unknown {
  const betterSqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  const bindings = createRequire(betterSqlite)('bindings') as (options: object) => unknown;
  try {
    bindings({ bindings: 'better_sqlite3.node', module_root: tmpdir() });
  } catch (error) {
    return error;
  }
  throw new Error('bindings found an addon in the temporary directory');
}

describe('a missing native binding', () => {
  it('is recognised in the error the bindings package throws', () => {
    const error = bindingsError();
    expect(String(error)).toMatch(/Could not locate the bindings file/);
    expect(isNativeBindingError(error)).toBe(true);
    const context = {
      driver: chooseDriver('better-sqlite3', '/tmp/x.db'),
      filename: '/tmp/x.db',
      operation: 'open',
      busyTimeoutMs: 5000,
    };
    expect(translateError(error, context)).toMatchObject({
      name: 'StoreError',
      code: 'STORE_NATIVE_MISSING',
      details: { filename: '/tmp/x.db', driver: 'better-sqlite3' },
    });
  });

  it('is not confused with file-system or other errors', () => {
    const enoent = Object.assign(new Error('no such file'), { code: 'ENOENT' });
    expect(isNativeBindingError(enoent)).toBe(false);
    expect(isNativeBindingError(new TypeError('x is not a function'))).toBe(false);
  });

  // better-sqlite3 installed without its addon (`npm install --ignore-scripts`): installed means
  // chosen, so the default picks it too, and opening says how to build it.
  it.each([
    ['a new file', (dir: string) => join(dir, 'threads.db')],
    ['an in-memory database', () => ':memory:'],
  ])('makes opening %s throw STORE_NATIVE_MISSING with the fix', (_, name) => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-native-db-'));
    const from = unbuiltBetterSqlite3(dir);
    const filename = name(dir);
    const driver = chooseDriver(undefined, filename, from);
    expect(driver.name).toBe('better-sqlite3');
    const open = () =>
      openDatabase({ driver, filename, busyTimeoutMs: 5000, synchronous: 'full', verify: true });
    expect(open).toThrow(StoreError);
    try {
      open();
    } catch (error) {
      expect(StoreError.isInstance(error)).toBe(true);
      const { code, message, retryable, details } = error as StoreError;
      expect(code).toBe('STORE_NATIVE_MISSING');
      expect(details).toMatchObject({ filename, driver: 'better-sqlite3' });
      expect(retryable).toBe(false);
      expect(message).toMatch(/Could not locate the bindings file/);
      expect(message).toMatch(/onlyBuiltDependencies/);
      expect(message).toMatch(/--ignore-scripts/);
      expect(message).toMatch(/python3, make and a C\+\+ compiler/);
      expect(message).toMatch(/Node 22\.13 or later, driver 'node:sqlite' needs no addon/);
    }
  });
});
