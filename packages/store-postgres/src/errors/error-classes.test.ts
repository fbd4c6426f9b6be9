import { SkeinError } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../index.js';

type ErrorClass = (abstract new (
  ...args: never[]
) => SkeinError) & {
  isInstance(value: unknown): boolean;
};

const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), {
  code: 'ECONNREFUSED',
});

// One instance of every error class this package exports, with the code it must carry.
const table: [ErrorClass, SkeinError, string][] = [
  [api.StoreClosedError, new api.StoreClosedError('skein', 'load'), 'STORE_CLOSED'],
  [api.StoreCorruptError, new api.StoreCorruptError('skein', 'bad row'), 'STORE_CORRUPT'],
  [
    api.StoreDatabaseError,
    new api.StoreDatabaseError('skein', 'save', cause, 'ECONNREFUSED'),
    'STORE_DATABASE',
  ],
  [api.StoreTooNewError, new api.StoreTooNewError('skein', 9, 1), 'STORE_TOO_NEW'],
  [
    api.StoreUnserializableError,
    new api.StoreUnserializableError(
      'skein',
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
    '%o has its code, names the schema, and has an isInstance that rejects its siblings',
    (type, error, code) => {
      expect(error.code).toBe(code);
      expect(error.message).toContain('"skein"');
      expect(error.details.schema).toBe('skein');
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

  it('says which database failures a retry can fix', () => {
    const failure = (state: string) =>
      new api.StoreDatabaseError('s', 'save', new Error('x'), state);
    expect(failure('ECONNREFUSED').retryable).toBe(true);
    expect(failure('08006').retryable).toBe(true);
    expect(failure('40001').retryable).toBe(true);
    expect(failure('57P01').retryable).toBe(true);
    expect(failure('42501').retryable).toBe(false);
    expect(failure('42P01').retryable).toBe(false);
    expect(new api.StoreCorruptError('s', 'bad').retryable).toBe(false);
  });
});
