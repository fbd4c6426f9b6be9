import { storeClosed, storeCorrupt, storeTooNew, storeUnserializable } from '@skein/core/store-kit';
import { SkeinError, StoreError } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../index.js';
import { type PostgresStoreErrorCode, postgresStore, storeDatabase } from './store-errors.js';

const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
  code: 'ECONNREFUSED',
});
const store = postgresStore('skein');

// One error per code this package throws: typed, so a code added to the union and missing here
// does not compile.
const errors: { [C in PostgresStoreErrorCode]: StoreError<C> } = {
  STORE_CLOSED: storeClosed(store, 'load'),
  STORE_CORRUPT: storeCorrupt(store, 'bad row'),
  STORE_DATABASE: storeDatabase('skein', 'save', cause, 'ECONNREFUSED'),
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
    '%s is a StoreError with its code, naming the schema',
    (code, error) => {
      expect(StoreError.isInstance(error)).toBe(true);
      expect(error.name).toBe('StoreError');
      expect(error.code).toBe(code);
      expect(error.message).toContain('"skein"');
      expect(error.details.schema).toBe('skein');
    },
  );

  it('has a literal code type', () => {
    expectTypeOf<string extends PostgresStoreErrorCode ? true : false>().toEqualTypeOf<false>();
  });

  it('keeps the facts of each failure in details', () => {
    expect(errors.STORE_CLOSED.details).toEqual({ schema: 'skein', operation: 'load' });
    expect(errors.STORE_CORRUPT.details).toEqual({ schema: 'skein', problem: 'bad row' });
    expect(errors.STORE_DATABASE.details).toEqual({
      schema: 'skein',
      operation: 'save',
      sqlState: 'ECONNREFUSED',
    });
    expect(errors.STORE_DATABASE.cause).toBe(cause);
    expect(errors.STORE_TOO_NEW.details).toEqual({ schema: 'skein', found: 9, supported: 1 });
    expect(errors.STORE_TOO_NEW.message).toContain('@skein/store-postgres');
    expect(errors.STORE_UNSERIALIZABLE.details).toEqual({
      schema: 'skein',
      threadId: 't',
      checkpointId: 'c',
      path: '$.x',
      reason: 'a BigInt',
    });
  });

  it('says which database failures a retry can fix', () => {
    const failure = (state: string) => storeDatabase('s', 'save', new Error('x'), state);
    expect(failure('ECONNREFUSED').retryable).toBe(true);
    expect(failure('08006').retryable).toBe(true);
    expect(failure('40001').retryable).toBe(true);
    expect(failure('57P01').retryable).toBe(true);
    expect(failure('42501').retryable).toBe(false);
    expect(failure('42P01').retryable).toBe(false);
    for (const code of ['STORE_CLOSED', 'STORE_CORRUPT', 'STORE_TOO_NEW', 'STORE_UNSERIALIZABLE'])
      expect(errors[code as PostgresStoreErrorCode].retryable, code).toBe(false);
  });
});
