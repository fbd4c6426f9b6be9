import { NotFoundError, SkeinError } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../index.js';

type ErrorClass = (abstract new (
  ...args: never[]
) => SkeinError) & {
  isInstance(value: unknown): boolean;
};

// One instance of every error class this package exports, with the code it must carry.
const table: [ErrorClass, SkeinError, string][] = [
  [
    api.ConcurrencySlotTimeoutError,
    new api.ConcurrencySlotTimeoutError('openai', 4, 100),
    'CONCURRENCY_SLOT_TIMEOUT',
  ],
  [api.UnknownThreadError, new api.UnknownThreadError('t', 'resume'), 'WORKER_UNKNOWN_THREAD'],
  [api.WorkerClosedError, new api.WorkerClosedError('enqueue a thread'), 'WORKER_CLOSED'],
  [
    api.WorkerDatabaseError,
    new api.WorkerDatabaseError('WORKER_DATABASE_UNAVAILABLE', 'enqueue a thread', new Error('x')),
    'WORKER_DATABASE_UNAVAILABLE',
  ],
  [
    api.WorkerOptionError,
    new api.WorkerOptionError('concurrency', 0, 'an integer from 1 to 1000'),
    'WORKER_INVALID_OPTION',
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
    expect(new api.ConcurrencySlotTimeoutError('k', 1, 1).retryable).toBe(true);
    expect(new api.UnknownThreadError('t', 'cancel').retryable).toBe(false);
    const cause = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const down = new api.WorkerDatabaseError('WORKER_DATABASE_UNAVAILABLE', 'enqueue', cause);
    expect(down).toMatchObject({ retryable: true, cause, details: { driverCode: 'ECONNREFUSED' } });
    expect(new api.WorkerDatabaseError('WORKER_DATABASE_ERROR', 'enqueue', cause).retryable).toBe(
      false,
    );
  });
});

describe('the kind of each error', () => {
  it('an unknown thread is a NotFoundError (an HTTP surface answers 404), with its own code', () => {
    const unknown = new api.UnknownThreadError('t', 'resume');
    expect(NotFoundError.isInstance(unknown)).toBe(true);
    expect(unknown).toMatchObject({
      code: 'WORKER_UNKNOWN_THREAD',
      name: 'UnknownThreadError',
      threadId: 't',
      operation: 'resume',
    });
    expect(NotFoundError.isInstance(new api.WorkerClosedError('enqueue a thread'))).toBe(false);
  });
});
