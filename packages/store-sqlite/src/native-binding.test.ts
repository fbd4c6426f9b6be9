import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StoreError } from '@skein/spec';
import { describe, expect, it, vi } from 'vitest';
import { isNativeBindingError } from './native-binding.js';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';
import { translateError } from './translate-error.js';

const missingAddon = join(mkdtempSync(join(tmpdir(), 'skein-native-')), 'better_sqlite3.node');

// Every `new Database()` of the store loads its addon from a path where none was built, as after
// `npm install --ignore-scripts`.
vi.mock('better-sqlite3', async (importOriginal) => {
  const { default: Actual } = await importOriginal<{ default: typeof import('better-sqlite3') }>();
  function Database(filename: string, options?: import('better-sqlite3').Options) {
    return new Actual(filename, { ...options, nativeBinding: missingAddon });
  }
  Database.SqliteError = Actual.SqliteError;
  return { default: Database };
});

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

const context = { filename: '/tmp/x.db', operation: 'open', busyTimeoutMs: 5000 };

describe('a missing native binding', () => {
  it('is recognised in the error the bindings package throws', () => {
    const error = bindingsError();
    expect(String(error)).toMatch(/Could not locate the bindings file/);
    expect(isNativeBindingError(error)).toBe(true);
    expect(translateError(error, context)).toMatchObject({
      name: 'StoreError',
      code: 'STORE_NATIVE_MISSING',
      details: { filename: '/tmp/x.db' },
    });
  });

  it('is not confused with file-system or other errors', () => {
    const enoent = Object.assign(new Error('no such file'), { code: 'ENOENT' });
    expect(isNativeBindingError(enoent)).toBe(false);
    expect(isNativeBindingError(new TypeError('x is not a function'))).toBe(false);
  });

  it.each([
    ['a new file', (dir: string) => join(dir, 'threads.db')],
    ['an in-memory database', () => ':memory:'],
  ])('makes opening %s throw STORE_NATIVE_MISSING with the fix', (_, name) => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-native-db-'));
    const open = () => new SqliteCheckpointStore({ filename: name(dir) });
    expect(open).toThrow(StoreError);
    try {
      open();
    } catch (error) {
      expect(StoreError.isInstance(error)).toBe(true);
      const { code, message, retryable } = error as StoreError;
      expect(code).toBe('STORE_NATIVE_MISSING');
      expect(retryable).toBe(false);
      expect(message).toMatch(/onlyBuiltDependencies/);
      expect(message).toMatch(/--ignore-scripts/);
      expect(message).toMatch(/python3, make and a C\+\+ compiler/);
    }
  });
});
