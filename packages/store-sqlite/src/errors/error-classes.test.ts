import { SkeinError } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../index.js';

type ErrorClass = (abstract new (
  ...args: never[]
) => SkeinError) & {
  isInstance(value: unknown): boolean;
};

const cause = new Error('boom');

// One instance of every error class this package exports, with the code it must carry.
const table: [ErrorClass, SkeinError, string][] = [
  [api.StoreBusyError, new api.StoreBusyError('db.sqlite', 'save', 100, cause), 'STORE_BUSY'],
  [api.StoreClosedError, new api.StoreClosedError('db.sqlite', 'load'), 'STORE_CLOSED'],
  [api.StoreCorruptError, new api.StoreCorruptError('db.sqlite', 'bad row'), 'STORE_CORRUPT'],
  [
    api.StoreForeignError,
    new api.StoreForeignError('db.sqlite', ['no skein_meta table']),
    'STORE_FOREIGN',
  ],
  [api.StoreIoError, new api.StoreIoError('db.sqlite', 'save', cause), 'STORE_IO'],
  [
    api.StoreNativeMissingError,
    new api.StoreNativeMissingError('db.sqlite', cause),
    'STORE_NATIVE_MISSING',
  ],
  [api.StoreTooNewError, new api.StoreTooNewError('db.sqlite', 9, 1), 'STORE_TOO_NEW'],
  [
    api.StoreUnserializableError,
    new api.StoreUnserializableError(
      'db.sqlite',
      { threadId: 't', id: 'c' },
      { path: '$.x', reason: 'a BigInt' },
    ),
    'STORE_UNSERIALIZABLE',
  ],
];

type Api = typeof api;
type ClassNames = {
  [K in keyof Api]: Api[K] extends abstract new (...args: never[]) => SkeinError ? K : never;
}[keyof Api];
type CodeOf<C> = C extends abstract new (...args: never[]) => SkeinError<infer Code> ? Code : never;
type WideCodes = { [K in ClassNames]: string extends CodeOf<Api[K]> ? K : never }[ClassNames];

describe('every exported error class', () => {
  it('is in the table', () => {
    const exported = Object.values(api).filter(
      (value) => typeof value === 'function' && value.prototype instanceof SkeinError,
    );
    expect(new Set(exported)).toEqual(new Set(table.map(([type]) => type)));
  });

  it.each(table)(
    '%o has its code, and an isInstance that rejects its siblings',
    (type, error, code) => {
      expect(error.code).toBe(code);
      expect(SkeinError.isInstance(error)).toBe(true);
      for (const [other, instance] of table)
        expect(type.isInstance(instance), `${type.name}.isInstance(${other.name})`).toBe(
          other === type,
        );
    },
  );

  it('has a literal code type', () => {
    expectTypeOf<WideCodes>().toEqualTypeOf<never>();
  });

  it('says which failures a retry can fix', () => {
    expect(new api.StoreBusyError('db', 'save', 1, cause).retryable).toBe(true);
    expect(new api.StoreCorruptError('db', 'bad').retryable).toBe(false);
  });
});
