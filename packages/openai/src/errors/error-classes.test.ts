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
  [api.AccumulatorClosedError, new api.AccumulatorClosedError(), 'ACCUMULATOR_CLOSED'],
  [
    api.InvalidChoiceIndexError,
    new api.InvalidChoiceIndexError(1.5, 'choices[0].index', 3),
    'INVALID_CHOICE_INDEX',
  ],
  [api.InvalidChunkError, new api.InvalidChunkError('choices', 'not an array'), 'INVALID_CHUNK'],
  [
    api.InvalidConversationError,
    new api.InvalidConversationError(0, 'no role'),
    'INVALID_CONVERSATION',
  ],
  [
    api.InvalidToolCallIndexError,
    new api.InvalidToolCallIndexError(-1, 'tool_calls[0].index', 3),
    'INVALID_TOOL_CALL_INDEX',
  ],
  [api.InvalidToolNameError, new api.InvalidToolNameError('', 'empty'), 'INVALID_TOOL_NAME'],
  [
    api.InvalidToolNameMappingError,
    new api.InvalidToolNameMappingError('x', 'not a string'),
    'INVALID_TOOL_NAME_MAPPING',
  ],
  [
    api.InvalidTranscriptError,
    new api.InvalidTranscriptError('messages[0]', 'no role'),
    'INVALID_TRANSCRIPT',
  ],
  [
    api.ProviderRequestError,
    new api.ProviderRequestError(
      { status: 429, providerCode: undefined, providerMessage: 'slow down', model: 'm' },
      cause,
    ),
    'PROVIDER_REQUEST_FAILED',
  ],
  [
    api.ProviderStreamError,
    new api.ProviderStreamError(
      {},
      {
        providerCode: undefined,
        providerType: undefined,
        providerMessage: 'x',
        chunk: 1,
        retryable: false,
      },
    ),
    'PROVIDER_STREAM_ERROR',
  ],
  [api.RequestAbortedError, new api.RequestAbortedError('m', 'request', cause), 'REQUEST_ABORTED'],
  [api.RequestTimeoutError, new api.RequestTimeoutError('m', 'stream', 10), 'REQUEST_TIMEOUT'],
  [
    api.StreamInterruptedError,
    new api.StreamInterruptedError('socket closed', { chunks: 2 }),
    'STREAM_INTERRUPTED',
  ],
  [
    api.StreamLimitExceededError,
    new api.StreamLimitExceededError('tool calls', 8, 'choices[0]'),
    'STREAM_LIMIT_EXCEEDED',
  ],
  [
    api.ToolNameCollisionError,
    new api.ToolNameCollisionError(['a.b', 'a_b'], 'a_b', 'same encoding'),
    'TOOL_NAME_COLLISION',
  ],
  [api.UnknownToolNameError, new api.UnknownToolNameError('x_1a2b'), 'UNKNOWN_TOOL_NAME'],
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
    expect(new api.RequestTimeoutError('m', 'request', 1).retryable).toBe(true);
    expect(new api.StreamInterruptedError('closed', { chunks: 1 }).retryable).toBe(true);
    expect(new api.RequestAbortedError('m', 'request', cause).retryable).toBe(false);
    expect(new api.InvalidChunkError('choices', 'x').retryable).toBe(false);
  });
});
