import { SkeinError } from '@skein/spec';
import { describe, expect, it } from 'vitest';
import * as api from '../index.js';
import { notAStore, storeMissing, unsupportedStore } from './store-errors.js';

type ErrorClass = (abstract new (
  ...args: never[]
) => SkeinError) & {
  readonly errorName: string;
  isInstance(value: unknown): boolean;
};

// Every error class this package exports, with each code it throws.
const table: [ErrorClass, SkeinError, string][] = [
  [api.NotFoundError, storeMissing('/tmp/x.db'), 'STORE_MISSING'],
  [api.StoreError, notAStore('/tmp/x.db', 'the file is empty'), 'NOT_A_STORE'],
  [api.StoreError, unsupportedStore('redis://x', ['a SQLite file']), 'UNSUPPORTED_STORE'],
];

describe('every exported error class', () => {
  it('is in the table: @skein/spec’s kinds only', () => {
    const exported = Object.values(api).filter(
      (value) => typeof value === 'function' && value.prototype instanceof SkeinError,
    );
    expect(new Set(exported)).toEqual(new Set(table.map(([type]) => type)));
  });

  it.each(table)(
    '%o has its code %#, and an isInstance that rejects its siblings',
    (type, error, code) => {
      expect(error.code).toBe(code);
      expect(error.code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
      expect(error.name).toBe(type.errorName);
      expect(error.retryable).toBe(false);
      expect(SkeinError.isInstance(error)).toBe(true);
      for (const [other, instance] of table)
        expect(type.isInstance(instance), `${type.errorName}.isInstance(${other.errorName})`).toBe(
          other === type,
        );
    },
  );
});

describe('the errors of openStore', () => {
  it('keep their facts as fields, and in details', () => {
    expect(notAStore('/tmp/x.db', 'the file is empty')).toMatchObject({
      location: '/tmp/x.db',
      reason: 'the file is empty',
      details: { location: '/tmp/x.db', reason: 'the file is empty' },
    });
    expect(notAStore('/tmp/x.db', 'the file is empty').message).toMatch(
      /is not a Skein store \(the file is empty\)/,
    );
    expect(storeMissing('/tmp/x.db')).toMatchObject({
      location: '/tmp/x.db',
      message: 'No store at /tmp/x.db: the file does not exist',
    });
    expect(unsupportedStore('redis://x', ['a SQLite file']).supported).toEqual(['a SQLite file']);
  });
});
