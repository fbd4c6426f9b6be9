import { storeClosed, storeCorrupt, storeTooNew, storeUnserializable } from '@skein/core/store-kit';
import { SkeinError, StoreError } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../index.js';
import {
  type SqliteStoreErrorCode,
  sqliteStore,
  storeBusy,
  storeForeign,
  storeIo,
  storeNativeMissing,
} from './store-errors.js';

const cause = new Error('boom');
const filename = '/srv/db.sqlite';
const store = sqliteStore(filename);

// One error per code this package throws: typed, so a code added to the union and missing here
// does not compile.
const errors: { [C in SqliteStoreErrorCode]: StoreError<C> } = {
  STORE_BUSY: storeBusy(filename, 'save', 100, cause),
  STORE_CLOSED: storeClosed(store, 'load'),
  STORE_CORRUPT: storeCorrupt(store, 'bad row', { details: { where: 'message 0' } }),
  STORE_FOREIGN: storeForeign(filename, ['no skein_meta table']),
  STORE_IO: storeIo(filename, 'save', cause, 'SQLITE_FULL'),
  STORE_NATIVE_MISSING: storeNativeMissing(filename, cause),
  STORE_TOO_NEW: storeTooNew(store, 9, 1),
  STORE_UNSERIALIZABLE: storeUnserializable(
    store,
    { threadId: 't', id: 'c' },
    { path: '$.x', reason: 'a BigInt' },
  ),
};

describe('the errors of the store', () => {
  it('are StoreErrors: the package exports that class and no error class of its own', () => {
    const exported = Object.values(api).filter(
      (value) =>
        typeof value === 'function' &&
        (value === SkeinError || value.prototype instanceof SkeinError),
    );
    expect(exported).toEqual([StoreError]);
  });

  it.each(Object.entries(errors))(
    '%s is a StoreError with its code, naming the file',
    (code, error) => {
      expect(StoreError.isInstance(error)).toBe(true);
      expect(error.name).toBe('StoreError');
      expect(error.code).toBe(code);
      expect(error.details.filename).toBe(filename);
      expect(error.message).toContain(filename);
    },
  );

  it('has a literal code type', () => {
    expectTypeOf<string extends SqliteStoreErrorCode ? true : false>().toEqualTypeOf<false>();
  });

  it('says which failures a retry can fix: STORE_BUSY only', () => {
    for (const [code, error] of Object.entries(errors))
      expect(error.retryable, code).toBe(code === 'STORE_BUSY');
  });

  it('keeps the facts of each failure in details', () => {
    expect(errors.STORE_BUSY.details).toEqual({ filename, operation: 'save', timeoutMs: 100 });
    expect(errors.STORE_CLOSED.details).toEqual({ filename, operation: 'load' });
    expect(errors.STORE_CORRUPT.details).toEqual({
      filename,
      problem: 'bad row',
      where: 'message 0',
    });
    expect(errors.STORE_FOREIGN.details).toEqual({ filename, problems: ['no skein_meta table'] });
    expect(errors.STORE_IO.details).toEqual({
      filename,
      operation: 'save',
      sqliteCode: 'SQLITE_FULL',
    });
    expect(errors.STORE_TOO_NEW.details).toEqual({ filename, found: 9, supported: 1 });
    expect(errors.STORE_TOO_NEW.message).toContain('@skein/store-sqlite');
    expect(errors.STORE_UNSERIALIZABLE.details).toEqual({
      filename,
      threadId: 't',
      checkpointId: 'c',
      path: '$.x',
      reason: 'a BigInt',
    });
    expect(errors.STORE_BUSY.cause).toBe(cause);
  });
});
