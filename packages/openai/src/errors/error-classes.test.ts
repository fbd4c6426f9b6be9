import { SkeinError } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../index.js';
import {
  accumulatorClosed,
  invalidChoiceIndex,
  invalidChunk,
  invalidToolCallIndex,
  requestAborted,
  requestFailed,
  requestTimedOut,
  streamErrorReceived,
  streamInterrupted,
  streamLimitExceeded,
} from './provider-errors.js';

type ErrorClass = (abstract new (
  ...args: never[]
) => SkeinError) & {
  readonly errorName: string;
  isInstance(value: unknown): boolean;
};

const cause = new Error('boom');

// One instance per code: typed so a code added to a union and missing here does not compile.
const providerErrors: { [C in api.OpenAIProviderErrorCode]: api.OpenAIProviderError<C> } = {
  PROVIDER_REQUEST_FAILED: requestFailed(
    { status: 429, providerCode: undefined, providerMessage: 'slow down', model: 'm' },
    cause,
  ),
  PROVIDER_STREAM_ERROR: streamErrorReceived(
    { message: 'x' },
    {
      providerCode: undefined,
      providerType: undefined,
      providerMessage: 'x',
      chunk: 1,
      retryable: false,
    },
  ),
  REQUEST_ABORTED: requestAborted('m', 'request', cause),
  REQUEST_TIMEOUT: requestTimedOut('m', 'stream', 10),
  STREAM_INTERRUPTED: streamInterrupted('socket closed', { chunks: 2 }),
  STREAM_LIMIT_EXCEEDED: streamLimitExceeded('tool calls', 8, 'choices[0]'),
  INVALID_CHUNK: invalidChunk('choices', 'not an array'),
  INVALID_CHOICE_INDEX: invalidChoiceIndex(1.5, 'choices[0].index', 3),
  INVALID_TOOL_CALL_INDEX: invalidToolCallIndex(-1, 'tool_calls[0].index', 3),
  ACCUMULATOR_CLOSED: accumulatorClosed(),
};
const toolNameErrors: { [C in api.ToolNameErrorCode]: api.ToolNameError<C> } = {
  INVALID_TOOL_NAME: api.ToolNameError.invalidName('', 'empty'),
  INVALID_TOOL_NAME_MAPPING: api.ToolNameError.invalidMapping('x', 'not a string'),
  TOOL_NAME_COLLISION: api.ToolNameError.collision(['a.b', 'a_b'], 'a_b', 'same encoding'),
  UNKNOWN_TOOL_NAME: api.ToolNameError.unknown('x_1a2b'),
};
const conversationErrors = {
  INVALID_CONVERSATION: api.ConversationError.invalidConversation(0, 'no role'),
  INVALID_TRANSCRIPT: api.ConversationError.invalidTranscript('messages[0]', 'no role'),
};

function rows(
  type: ErrorClass,
  errors: Record<string, SkeinError>,
): [ErrorClass, SkeinError, string][] {
  return Object.entries(errors).map(([code, error]) => [type, error, code]);
}

// Every error class this package exports, with each code it throws.
const table: [ErrorClass, SkeinError, string][] = [
  [api.InvalidArgumentError, new api.InvalidArgumentError('timeoutMs', 'bad'), 'INVALID_ARGUMENT'],
  ...rows(api.ProviderError, providerErrors),
  ...rows(api.ToolNameError, toolNameErrors),
  ...rows(api.ConversationError, conversationErrors),
];

type Api = typeof api;
type ClassNames = {
  [K in keyof Api]: Api[K] extends abstract new (...args: never[]) => SkeinError ? K : never;
}[keyof Api];
type CodeOf<C> = C extends abstract new (...args: never[]) => SkeinError<infer Code> ? Code : never;
// ProviderError's code is each package's (this package's are `OpenAIProviderErrorCode`).
type WideCodes = {
  [K in Exclude<ClassNames, 'ProviderError'>]: string extends CodeOf<Api[K]> ? K : never;
}[Exclude<ClassNames, 'ProviderError'>];

describe('every exported error class', () => {
  it('is in the table', () => {
    const exported = Object.values(api).filter(
      (value) => typeof value === 'function' && value.prototype instanceof SkeinError,
    );
    expect(new Set(exported)).toEqual(new Set(table.map(([type]) => type)));
  });

  it('has none of its own: every class comes from @skein/spec or @skein/conversation', async () => {
    const spec = await import('@skein/spec');
    const own = new Set(table.map(([type]) => type));
    for (const shared of [spec.InvalidArgumentError, spec.ProviderError, spec.ToolNameError])
      own.delete(shared);
    own.delete(api.ConversationError);
    expect([...own].map((type) => type.errorName)).toEqual([]);
  });

  it.each(table)(
    '%o has its code %#, and an isInstance that rejects its siblings',
    (type, error, code) => {
      expect(error.code).toBe(code);
      expect(error.code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
      expect(error.name).toBe(type.errorName);
      expect(SkeinError.isInstance(error)).toBe(true);
      for (const [other, instance] of table)
        expect(type.isInstance(instance), `${type.errorName}.isInstance(${other.errorName})`).toBe(
          other === type,
        );
    },
  );

  it('has a literal code type', () => {
    expectTypeOf<WideCodes>().toEqualTypeOf<never>();
    expectTypeOf<api.ToolNameError['code']>().toEqualTypeOf<api.ToolNameErrorCode>();
    expectTypeOf(providerErrors.REQUEST_TIMEOUT.code).toEqualTypeOf<'REQUEST_TIMEOUT'>();
  });

  it('says which failures a retry can fix', () => {
    expect(
      table
        .filter(([, e]) => e.retryable)
        .map(([, e]) => e.code)
        .sort(),
    ).toEqual(['PROVIDER_REQUEST_FAILED', 'REQUEST_TIMEOUT', 'STREAM_INTERRUPTED']);
    expect(requestTimedOut('m', 'request', 1).retryable).toBe(true);
    expect(streamInterrupted('closed', { chunks: 1 }).retryable).toBe(true);
    expect(requestAborted('m', 'request', cause).retryable).toBe(false);
    expect(invalidChunk('choices', 'x').retryable).toBe(false);
  });
});

describe('the facts of each code', () => {
  it('are fields, typed through isOpenAIProviderError, and in details', () => {
    const error: unknown = providerErrors.PROVIDER_REQUEST_FAILED;
    expect(api.isOpenAIProviderError(error)).toBe(true);
    expect(api.isOpenAIProviderError(error, 'REQUEST_TIMEOUT')).toBe(false);
    expect(api.isOpenAIProviderError(new api.ProviderError('OTHER', 'x'))).toBe(false);
    expect(api.isOpenAIProviderError(toolNameErrors.UNKNOWN_TOOL_NAME)).toBe(false);
    if (!api.isOpenAIProviderError(error, 'PROVIDER_REQUEST_FAILED')) throw new Error('narrows');
    expectTypeOf(error.status).toEqualTypeOf<number | undefined>();
    expectTypeOf(error.retryAfterMs).toEqualTypeOf<number | undefined>();
    expect(error).toMatchObject({ status: 429, providerMessage: 'slow down' });
    expect(error.details).toEqual({
      status: 429,
      providerCode: undefined,
      providerMessage: 'slow down',
      model: 'm',
    });
    expect(error.cause).toBe(cause);
    expect(providerErrors.PROVIDER_STREAM_ERROR).toMatchObject({
      providerMessage: 'x',
      payload: { message: 'x' },
      details: { chunk: 1 },
    });
    expect(providerErrors.REQUEST_TIMEOUT).toMatchObject({ phase: 'stream', timeoutMs: 10 });
    expect(providerErrors.STREAM_INTERRUPTED).toMatchObject({ reason: 'socket closed', chunks: 2 });
    expect('model' in providerErrors.STREAM_INTERRUPTED).toBe(false);
    expect(providerErrors.INVALID_CHOICE_INDEX).toMatchObject({
      index: 1.5,
      details: { index: 1.5, where: 'choices[0].index', maxIndex: 3 },
    });
    expect(providerErrors.STREAM_LIMIT_EXCEEDED.message).toBe('choices[0]: more than 8 tool calls');
    expect(providerErrors.ACCUMULATOR_CLOSED.details).toEqual({});
  });

  it('of a tool-name error are typed fields, and in details', () => {
    expect(toolNameErrors.INVALID_TOOL_NAME).toMatchObject({
      toolName: '',
      problem: 'empty',
      details: { name: '', problem: 'empty' },
    });
    expect(toolNameErrors.TOOL_NAME_COLLISION).toMatchObject({
      names: ['a.b', 'a_b'],
      encoded: 'a_b',
    });
    expect(toolNameErrors.UNKNOWN_TOOL_NAME.details).toEqual({ encodedName: 'x_1a2b' });
    expect('key' in toolNameErrors.UNKNOWN_TOOL_NAME).toBe(false);
    expect(conversationErrors.INVALID_CONVERSATION.messageIndex).toBe(0);
  });
});
