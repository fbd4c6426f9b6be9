import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadStreamFixtures } from '../test-support/fixtures.js';
import { ToolCallAccumulator } from './tool-call-accumulator.js';

interface Call {
  readonly id: string;
  readonly name: string;
  readonly args: string;
}

type Fragment = Record<string, unknown>;

function assemble(chunks: readonly unknown[]): Call[] {
  const accumulator = new ToolCallAccumulator();
  for (const chunk of chunks) accumulator.push(chunk);
  return accumulator.finish().toolCalls.map((c) => ({ id: c.id, name: c.name, args: c.arguments }));
}

function chunkOf(fragments: readonly Fragment[]): unknown {
  return { choices: [{ index: 0, delta: { tool_calls: fragments }, finish_reason: null }] };
}

/** Cuts `text` at the given positions (any order, duplicates and out-of-range ones ignored). */
function split(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))]
    .filter((p) => p > 0 && p < text.length)
    .sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const point of points) {
    pieces.push(text.slice(from, point));
    from = point;
  }
  pieces.push(text.slice(from));
  return pieces;
}

interface Fragmentish {
  index?: unknown;
  function?: { arguments?: unknown; [key: string]: unknown } | null;
  [key: string]: unknown;
}

/**
 * The fixture's stream with each call's arguments taken out of its fragments and sent again
 * as pieces cut at `cuts`, right after the call's first fragment.
 */
function rechunk(chunks: readonly unknown[], cuts: readonly number[][]): unknown[] {
  const full = new Map<unknown, string>();
  for (const chunk of chunks) {
    for (const choice of (chunk as { choices?: { delta?: { tool_calls?: Fragmentish[] } }[] })
      .choices ?? []) {
      for (const f of choice.delta?.tool_calls ?? []) {
        const args = f.function?.arguments;
        full.set(f.index, (full.get(f.index) ?? '') + (typeof args === 'string' ? args : ''));
      }
    }
  }
  const seen = new Set<unknown>();
  const out: unknown[] = [];
  for (const chunk of chunks) {
    const c = chunk as { choices?: { delta?: { tool_calls?: Fragmentish[] } }[] };
    const firsts: unknown[] = [];
    const copy = structuredClone(c);
    for (const choice of copy.choices ?? []) {
      for (const f of choice.delta?.tool_calls ?? []) {
        if (f.function) f.function.arguments = '';
        if (!seen.has(f.index)) {
          seen.add(f.index);
          firsts.push(f.index);
        }
      }
    }
    out.push(copy);
    for (const index of firsts) {
      const position = [...full.keys()].indexOf(index);
      for (const piece of split(full.get(index)!, cuts[position] ?? [])) {
        out.push(chunkOf([{ index, function: { arguments: piece } }]));
      }
    }
  }
  return out;
}

const fixtures = loadStreamFixtures().filter((f) => f.expected.tool_calls.length > 0);

describe('re-chunking (property)', () => {
  it.each(fixtures.map((f) => [f.file, f] as const))(
    '%s: any split of the arguments assembles the same calls',
    (_, fixture) => {
      const expected = fixture.expected.tool_calls.map((c) => ({
        id: c.id,
        name: c.function.name,
        args: c.function.arguments,
      }));
      fc.assert(
        fc.property(
          fc.array(fc.array(fc.nat({ max: 200 }), { maxLength: 40 }), {
            minLength: expected.length,
            maxLength: expected.length,
          }),
          (cuts) => {
            expect(assemble(rechunk(fixture.chunks, cuts))).toEqual(expected);
          },
        ),
        { numRuns: 150 },
      );
    },
  );
});

const argsArb = fc
  .dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), {
    maxKeys: 4,
  })
  .map((value) => JSON.stringify(value));

const callsArb = fc.uniqueArray(
  fc.record({
    id: fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/).filter((s) => s !== 'null'),
    name: fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/),
    args: argsArb,
  }),
  { minLength: 1, maxLength: 4, selector: (c) => c.id },
);

/** Noise a server may send where a value is absent. */
const absentArb = fc.constantFrom<unknown>(undefined, null, '', 'null');

describe('id and name rules (property)', () => {
  it('id and name come from their first non-empty fragment, whatever repeats or blanks surround them', () => {
    fc.assert(
      fc.property(
        callsArb,
        fc.nat({ max: 5 }),
        fc.array(fc.nat({ max: 100 }), { maxLength: 30 }),
        fc.array(fc.tuple(fc.boolean(), fc.boolean(), absentArb, absentArb), {
          minLength: 40,
          maxLength: 40,
        }),
        fc.nat(),
        fc.nat(),
        (calls, base, cuts, noise, idAt, nameAt) => {
          const chunks: unknown[] = [];
          let k = 0;
          calls.forEach((call, n) => {
            const pieces = split(call.args, cuts);
            const fragments = Math.max(pieces.length, 2);
            const idFirst = idAt % fragments;
            const nameFirst = nameAt % fragments;
            for (let f = 0; f < fragments; f++) {
              const [repeatId, repeatName, idNoise, nameNoise] = noise[k++ % noise.length]!;
              const id = f === idFirst || (f > idFirst && repeatId) ? call.id : idNoise;
              const name = f === nameFirst || (f > nameFirst && repeatName) ? call.name : nameNoise;
              const fragment: Fragment = {
                index: base + n,
                function: { arguments: pieces[f] ?? '' },
              };
              if (id !== undefined) fragment.id = id;
              if (name !== undefined)
                (fragment.function as Fragment).name = name === 'null' ? null : name;
              chunks.push(chunkOf([fragment]));
            }
          });
          expect(assemble(chunks)).toEqual(calls);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('an id that never arrives is generated, unique and prefixed call_', () => {
    fc.assert(
      fc.property(
        callsArb,
        fc.array(absentArb, { minLength: 4, maxLength: 4 }),
        (calls, blanks) => {
          const chunks = calls.map((call, n) =>
            chunkOf([
              { index: n, id: blanks[n], function: { name: call.name, arguments: call.args } },
            ]),
          );
          const assembled = assemble(chunks);
          expect(assembled.map((c) => c.name)).toEqual(calls.map((c) => c.name));
          for (const c of assembled) expect(c.id).toMatch(/^call_[0-9a-f]{24}$/);
          expect(new Set(assembled.map((c) => c.id)).size).toBe(calls.length);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('without any index, calls that each bring an id are kept apart and continued by bare fragments', () => {
    fc.assert(
      fc.property(
        callsArb,
        fc.array(fc.nat({ max: 100 }), { maxLength: 30 }),
        fc.boolean(),
        (calls, cuts, repeat) => {
          const chunks: unknown[] = [];
          for (const call of calls) {
            split(call.args, cuts).forEach((piece, f) => {
              chunks.push(
                chunkOf([
                  f === 0 || repeat
                    ? {
                        id: call.id,
                        type: 'function',
                        function: { name: call.name, arguments: piece },
                      }
                    : { function: { arguments: piece } },
                ]),
              );
            });
          }
          expect(assemble(chunks)).toEqual(calls);
        },
      ),
      { numRuns: 300 },
    );
  });
});
