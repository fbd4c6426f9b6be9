import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uniqueToolCallIds } from './unique-tool-call-ids.js';

const call = (id: string, n = 0) => ({ id, name: 'add', arguments: `{"n":${n}}` });

describe('uniqueToolCallIds', () => {
  it('suffixes repeats, skipping ids already taken, and keeps everything else', () => {
    const calls = [call('a', 1), call('a', 2), call('a_2', 3), call('a', 4)];
    expect(uniqueToolCallIds(calls)).toEqual([
      call('a', 1),
      call('a_3', 2),
      call('a_2', 3),
      call('a_4', 4),
    ]);
    const distinct = [call('x'), call('y')];
    expect(uniqueToolCallIds(distinct)).toBe(distinct);
  });

  it('always gives distinct ids, deterministically, in call order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('a', 'a_2', 'b', 'a_3', 'b_2'), { maxLength: 12 }),
        (ids) => {
          const calls = ids.map((id, n) => call(id, n));
          const out = uniqueToolCallIds(calls);
          expect(new Set(out.map((c) => c.id)).size).toBe(calls.length);
          expect(out.map((c) => c.arguments)).toEqual(calls.map((c) => c.arguments));
          expect(uniqueToolCallIds(calls)).toEqual(out);
        },
      ),
    );
  });
});
