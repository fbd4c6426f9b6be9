import type { Role, ToolSpec } from '@skein/spec';
import fc from 'fast-check';

// The operations the model-based test (conversation.property.test.ts) draws at random.

export const TOOL_SETS: ToolSpec[][] = [
  [],
  [{ name: 'calc', description: 'math', parameters: {} }],
  [
    { name: 'calc', description: 'math', parameters: {} },
    { name: 'clock', description: 'time', parameters: {} },
  ],
];

export type Op =
  | { kind: 'add'; role: 'system' | 'user' | 'assistant'; text: string }
  | { kind: 'exchange'; calls: number; text: string }
  | { kind: 'start'; boundary: number; tools: boolean }
  | { kind: 'clear'; keep: boolean }
  | { kind: 'summarize'; keepTurns: number; system: boolean; text: string }
  | { kind: 'truncate'; keep: 'first' | 'last'; count: number; preserve: boolean }
  | { kind: 'insert'; position: number; text: string; system: boolean }
  | { kind: 'replace'; position: number; text: string }
  | { kind: 'filter'; roles: Role[]; mode: 'keep' | 'remove' }
  | { kind: 'rollback'; batch: number }
  | { kind: 'usage'; tokens: number }
  | { kind: 'toolset'; set: number }
  | { kind: 'indices'; picks: number[] }
  | { kind: 'reset' }
  | { kind: 'originalClear'; keep: boolean }
  | { kind: 'forge'; which: number }
  | { kind: 'restore' }
  | { kind: 'mark' }
  | { kind: 'revert' }
  | { kind: 'bad'; which: number };

const text = fc.string({ maxLength: 6 });
const op = <K extends Op['kind']>(kind: K, fields: Record<string, fc.Arbitrary<unknown>> = {}) =>
  fc.record({ kind: fc.constant(kind), ...fields }) as unknown as fc.Arbitrary<Op>;
export const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: op('add', {
      role: fc.constantFrom('system' as const, 'user' as const, 'assistant' as const),
      text,
    }),
  },
  { weight: 3, arbitrary: op('exchange', { calls: fc.integer({ min: 1, max: 3 }), text }) },
  { weight: 2, arbitrary: op('start', { boundary: fc.nat(40), tools: fc.boolean() }) },
  { weight: 2, arbitrary: op('clear', { keep: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: op('summarize', {
      keepTurns: fc.nat(3),
      system: fc.boolean(),
      text: fc.string({ minLength: 1, maxLength: 6 }).filter((t) => t.trim() !== ''),
    }),
  },
  {
    weight: 2,
    arbitrary: op('truncate', {
      keep: fc.constantFrom('first' as const, 'last' as const),
      count: fc.nat(8),
      preserve: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: op('insert', { position: fc.nat(12), text, system: fc.boolean() }) },
  { weight: 1, arbitrary: op('replace', { position: fc.nat(12), text }) },
  {
    weight: 1,
    arbitrary: op('filter', {
      roles: fc.subarray(['system', 'user', 'assistant', 'tool'] as Role[]),
      mode: fc.constantFrom('keep' as const, 'remove' as const),
    }),
  },
  { weight: 1, arbitrary: op('rollback', { batch: fc.nat(6) }) },
  { weight: 1, arbitrary: op('usage', { tokens: fc.nat(100) }) },
  { weight: 2, arbitrary: op('toolset', { set: fc.nat(2) }) },
  { weight: 1, arbitrary: op('indices', { picks: fc.array(fc.nat(1000), { maxLength: 8 }) }) },
  { weight: 1, arbitrary: op('reset') },
  { weight: 1, arbitrary: op('originalClear', { keep: fc.boolean() }) },
  { weight: 1, arbitrary: op('forge', { which: fc.nat(3) }) },
  { weight: 1, arbitrary: op('restore') },
  { weight: 1, arbitrary: op('mark') },
  { weight: 1, arbitrary: op('revert') },
  { weight: 1, arbitrary: op('bad', { which: fc.nat(12) }) },
);
