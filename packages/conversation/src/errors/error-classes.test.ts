import { SkeinError } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../index.js';

type ErrorClass = (abstract new (
  ...args: never[]
) => SkeinError) & {
  readonly errorName: string;
  isInstance(value: unknown): boolean;
};

// One instance per code: typed so a code added to the union and missing here does not compile.
const conversationErrors: { [C in api.ConversationErrorCode]: api.ConversationError<C> } = {
  INVALID_MESSAGE: api.ConversationError.invalidMessage('bad', 'message.role'),
  INVALID_BOUNDARY: api.ConversationError.invalidBoundary(9, 3),
  UNKNOWN_BATCH: api.ConversationError.unknownBatch(4, 1),
  POSITION_NOT_VISIBLE: api.ConversationError.positionNotVisible('INSERT', 9, '0..3'),
  INVALID_SNAPSHOT: api.ConversationError.invalidSnapshot('version', 'unknown'),
  TOOL_DESCRIPTION_RESERVED: api.ConversationError.toolDescriptionReserved(
    'message.metadata.kind',
    'reserved',
  ),
  INVALID_CONVERSATION: api.ConversationError.invalidConversation(2, 'no id', { toolCall: 0 }),
  INVALID_TRANSCRIPT: api.ConversationError.invalidTranscript('messages[0]', 'no role'),
};

// Every error class this package exports, with each of its codes.
const table: [ErrorClass, SkeinError, string][] = [
  [api.InvalidArgumentError, new api.InvalidArgumentError('count', 'bad'), 'INVALID_ARGUMENT'],
  ...Object.entries(conversationErrors).map(([code, error]): [ErrorClass, SkeinError, string] => [
    api.ConversationError,
    error,
    code,
  ]),
];

describe('every exported error class', () => {
  it('is in the table', () => {
    const exported = Object.values(api).filter(
      (value) => typeof value === 'function' && value.prototype instanceof SkeinError,
    );
    expect(new Set(exported)).toEqual(new Set(table.map(([type]) => type)));
  });

  it('is ConversationError, besides InvalidArgumentError from @skein/spec', () => {
    const own = new Set(table.map(([type]) => type));
    own.delete(api.InvalidArgumentError);
    expect([...own].map((type) => type.errorName)).toEqual(['ConversationError']);
  });

  it.each(table)(
    '%o has its code %#, and an isInstance that rejects its siblings',
    (type, error, code) => {
      expect(error.code).toBe(code);
      expect(error.code).toMatch(/^[A-Z]+(_[A-Z]+)*$/);
      expect(error.retryable).toBe(false);
      expect(error.name).toBe(type.errorName);
      expect(SkeinError.isInstance(error)).toBe(true);
      for (const [other, instance] of table)
        expect(type.isInstance(instance), `${type.errorName}.isInstance(${other.errorName})`).toBe(
          other === type,
        );
    },
  );

  it('has a literal code type', () => {
    expectTypeOf<api.InvalidArgumentError['code']>().toEqualTypeOf<'INVALID_ARGUMENT'>();
    expectTypeOf<api.ConversationError['code']>().toEqualTypeOf<api.ConversationErrorCode>();
    expectTypeOf(api.ConversationError.unknownBatch(1, 1).code).toEqualTypeOf<'UNKNOWN_BATCH'>();
  });
});

describe('the facts of each code', () => {
  it('are typed fields, and in details', () => {
    expect(conversationErrors.INVALID_BOUNDARY).toMatchObject({ boundary: 9, storedCount: 3 });
    expect(conversationErrors.INVALID_BOUNDARY.details).toEqual({ boundary: 9, storedCount: 3 });
    expect(conversationErrors.UNKNOWN_BATCH.details).toEqual({ batch: 4, batchCount: 1 });
    expect(conversationErrors.POSITION_NOT_VISIBLE).toMatchObject({
      operation: 'INSERT',
      position: 9,
      allowed: '0..3',
    });
    expect(conversationErrors.INVALID_SNAPSHOT).toMatchObject({
      field: 'version',
      problem: 'unknown',
      message: 'Invalid conversation snapshot at version: unknown',
    });
    expect(conversationErrors.INVALID_MESSAGE.details).toEqual({ field: 'message.role' });
    expect(conversationErrors.INVALID_CONVERSATION).toMatchObject({
      messageIndex: 2,
      message: 'messages[2]: no id',
      details: { messageIndex: 2, problem: 'no id', toolCall: 0 },
    });
    expect(conversationErrors.INVALID_TRANSCRIPT).toMatchObject({
      path: 'messages[0]',
      message: 'Transcript messages[0]: no role',
    });
  });

  it('are only those of the code: an error has no field for a fact it does not have', () => {
    expect('field' in conversationErrors.UNKNOWN_BATCH).toBe(false);
    expect('messageIndex' in conversationErrors.INVALID_SNAPSHOT).toBe(false);
  });
});
