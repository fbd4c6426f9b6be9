import { SkeinError } from '@skein/spec';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../index.js';
import { InvalidBoundaryError } from './invalid-boundary-error.js';
import { InvalidMessageError } from './invalid-message-error.js';
import { InvalidSnapshotError } from './invalid-snapshot-error.js';
import { PositionNotVisibleError } from './position-not-visible-error.js';
import { ToolDescriptionReservedError } from './tool-description-reserved-error.js';
import { UnknownBatchError } from './unknown-batch-error.js';

type ErrorClass = (abstract new (
  ...args: never[]
) => SkeinError) & {
  isInstance(value: unknown): boolean;
};

// One instance of every error class this package exports, with the code it must carry.
const table: [ErrorClass, SkeinError, string][] = [
  [api.InvalidArgumentError, new api.InvalidArgumentError('count', 'bad'), 'INVALID_ARGUMENT'],
  [InvalidBoundaryError, new InvalidBoundaryError(9, 3), 'INVALID_BOUNDARY'],
  [InvalidMessageError, new InvalidMessageError('bad', 'message.role'), 'INVALID_MESSAGE'],
  [InvalidSnapshotError, new InvalidSnapshotError('version', 'unknown'), 'INVALID_SNAPSHOT'],
  [
    PositionNotVisibleError,
    new PositionNotVisibleError('INSERT', 9, '0..3'),
    'POSITION_NOT_VISIBLE',
  ],
  [
    ToolDescriptionReservedError,
    new ToolDescriptionReservedError('message.metadata.kind', 'reserved'),
    'TOOL_DESCRIPTION_RESERVED',
  ],
  [UnknownBatchError, new UnknownBatchError(4, 1), 'UNKNOWN_BATCH'],
];

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
    expectTypeOf<api.InvalidArgumentError['code']>().toEqualTypeOf<'INVALID_ARGUMENT'>();
    expectTypeOf<InvalidBoundaryError['code']>().toEqualTypeOf<'INVALID_BOUNDARY'>();
    expectTypeOf<InvalidMessageError['code']>().toEqualTypeOf<'INVALID_MESSAGE'>();
    expectTypeOf<InvalidSnapshotError['code']>().toEqualTypeOf<'INVALID_SNAPSHOT'>();
    expectTypeOf<PositionNotVisibleError['code']>().toEqualTypeOf<'POSITION_NOT_VISIBLE'>();
    expectTypeOf<
      ToolDescriptionReservedError['code']
    >().toEqualTypeOf<'TOOL_DESCRIPTION_RESERVED'>();
    expectTypeOf<UnknownBatchError['code']>().toEqualTypeOf<'UNKNOWN_BATCH'>();
  });
});
