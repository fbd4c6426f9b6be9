import { SkeinError } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../index.js';
import { InspectorRequestError } from './inspector-request-error.js';
import { notAStore, storeMissing, unsupportedStore } from './store-errors.js';

type ErrorClass = (abstract new (
  ...args: never[]
) => SkeinError) & {
  readonly errorName: string;
  isInstance(value: unknown): boolean;
};

// One instance per code: typed so a code added to the union and missing here does not compile.
const requestErrors: {
  [C in api.InspectorRequestErrorCode]: InspectorRequestError<C>;
} = {
  HOST_NOT_ALLOWED: InspectorRequestError.hostNotAllowed('evil.example'),
  CROSS_ORIGIN_REFUSED: InspectorRequestError.crossOrigin('POST', 'http://evil.example'),
  UNSUPPORTED_MEDIA_TYPE: InspectorRequestError.unsupportedMediaType('text/plain'),
  BODY_TOO_LARGE: InspectorRequestError.bodyTooLarge(65_536),
  METHOD_NOT_ALLOWED: InspectorRequestError.methodNotAllowed('PUT', ['GET', 'HEAD']),
  ROUTE_NOT_FOUND: InspectorRequestError.routeNotFound('/api/x'),
  RESUME_NOT_ALLOWED: InspectorRequestError.resumeNotAllowed('t', 'read-only'),
  FORK_NOT_ALLOWED: InspectorRequestError.forkNotAllowed('t', 'no-engine'),
  THREAD_NOT_PAUSED: InspectorRequestError.threadNotPaused('t', 'COMPLETED'),
};

// Every error class this package exports, with each code it throws.
const table: [ErrorClass, SkeinError, string][] = [
  ...Object.entries(requestErrors).map(([code, error]): [ErrorClass, SkeinError, string] => [
    api.InspectorRequestError,
    error,
    code,
  ]),
  [api.NotFoundError, storeMissing('/tmp/x.db'), 'STORE_MISSING'],
  [api.StoreError, notAStore('/tmp/x.db', 'the file is empty'), 'NOT_A_STORE'],
  [api.StoreError, unsupportedStore('redis://x', ['a SQLite file']), 'UNSUPPORTED_STORE'],
];

describe('every exported error class', () => {
  it('is in the table', () => {
    const exported = Object.values(api).filter(
      (value) => typeof value === 'function' && value.prototype instanceof SkeinError,
    );
    expect(new Set(exported)).toEqual(new Set(table.map(([type]) => type)));
  });

  it('is InspectorRequestError, besides those of @skein/spec', () => {
    const own = new Set(table.map(([type]) => type));
    own.delete(api.NotFoundError);
    own.delete(api.StoreError);
    expect([...own].map((type) => type.errorName)).toEqual(['InspectorRequestError']);
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

  it('has a literal code type, and a literal status for each code', () => {
    expectTypeOf<
      api.InspectorRequestError['code']
    >().toEqualTypeOf<api.InspectorRequestErrorCode>();
    expectTypeOf(requestErrors.BODY_TOO_LARGE.httpStatus).toEqualTypeOf<413>();
  });
});

describe('the refusals', () => {
  it('carry the HTTP status each is answered with', () => {
    expect(
      Object.fromEntries(Object.entries(requestErrors).map(([code, e]) => [code, e.httpStatus])),
    ).toEqual({
      HOST_NOT_ALLOWED: 421,
      CROSS_ORIGIN_REFUSED: 403,
      UNSUPPORTED_MEDIA_TYPE: 415,
      BODY_TOO_LARGE: 413,
      METHOD_NOT_ALLOWED: 405,
      ROUTE_NOT_FOUND: 404,
      RESUME_NOT_ALLOWED: 403,
      FORK_NOT_ALLOWED: 403,
      THREAD_NOT_PAUSED: 409,
    });
  });

  it('say why, with their facts as fields and in details', () => {
    expect(requestErrors.RESUME_NOT_ALLOWED.message).toMatch(/read-only/);
    expect(InspectorRequestError.resumeNotAllowed('t', 'no-engine').message).toMatch(/no engine/);
    expect(requestErrors.FORK_NOT_ALLOWED).toMatchObject({ threadId: 't', reason: 'no-engine' });
    expect(InspectorRequestError.forkNotAllowed('t', 'read-only').message).toMatch(/allowFork/);
    expect(requestErrors.THREAD_NOT_PAUSED).toMatchObject({
      threadId: 't',
      threadStatus: 'COMPLETED',
      details: { threadId: 't', status: 'COMPLETED' },
    });
    expect(requestErrors.THREAD_NOT_PAUSED.details).toEqual({ threadId: 't', status: 'COMPLETED' });
    expect(requestErrors.METHOD_NOT_ALLOWED).toMatchObject({ allowed: ['GET', 'HEAD'] });
    expect('allowed' in requestErrors.ROUTE_NOT_FOUND).toBe(false);
    expect('httpStatus' in requestErrors.ROUTE_NOT_FOUND.details).toBe(false);
    expect(InspectorRequestError.unsupportedMediaType('').message).toMatch(/not untyped/);
  });

  it('of openStore keep their facts as fields, and in details', () => {
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
