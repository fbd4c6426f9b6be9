import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../test-support/temp-folder.js';
import { datasetEntries } from './dataset-entries.js';
import { countJsonlLines, parseJsonlLine, readJsonl } from './read-jsonl.js';

async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const value of source) out.push(value);
  return out;
}

describe('readJsonl', () => {
  it('gives back every JSON value with its line number, skipping blank lines', async () => {
    const dir = tempFolder();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(fc.jsonValue(), fc.constant('BLANK')), { maxLength: 20 }),
        fc.boolean(),
        async (values, crlf) => {
          const path = join(dir, 'data.jsonl');
          const lines = values.map((v) => (v === 'BLANK' ? '' : JSON.stringify(v)));
          writeFileSync(path, lines.join(crlf ? '\r\n' : '\n'));
          const read = await collect(readJsonl(path));
          const expected = values.flatMap((v, i) =>
            v === 'BLANK' ? [] : [{ line: i + 1, value: JSON.parse(JSON.stringify(v)) }],
          );
          expect(read).toEqual(expected);
          expect(await countJsonlLines(path)).toBe(expected.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('reads past a UTF-8 byte order mark at the start of the file', async () => {
    const path = join(tempFolder(), 'data.jsonl');
    writeFileSync(path, '\uFEFF{"q":"first"}\n{"q":"second"}\n');
    expect(await collect(readJsonl(path))).toEqual([
      { line: 1, value: { q: 'first' } },
      { line: 2, value: { q: 'second' } },
    ]);
    writeFileSync(path, '\uFEFF\n{"q":"only"}\n');
    expect(await collect(readJsonl(path))).toEqual([{ line: 2, value: { q: 'only' } }]);
    expect(await countJsonlLines(path)).toBe(1);
    // Only at the start: elsewhere it is a character of the line.
    writeFileSync(path, '{"q":1}\n\uFEFF{"q":2}\n');
    expect(await collect(readJsonl(path))).toMatchObject([
      { line: 1 },
      { line: 2, problem: expect.stringMatching(/^not JSON/) },
    ]);
  });

  it('never throws on any text, and reports what is not JSON with its line', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(), (text, line) => {
        const parsed = parseJsonlLine(text, line + 1);
        expect(parsed.line).toBe(line + 1);
        if ('problem' in parsed) expect(parsed.problem).toMatch(/^not JSON/);
        else expect(parsed.value).toEqual(JSON.parse(text));
      }),
    );
  });
});

describe('datasetEntries', () => {
  it('gives each item an id (position, field or function) and refuses missing or repeated ids', async () => {
    const items = [{ id: 'a' }, { id: 'b' }, { id: 'a' }, { nope: 1 }, { id: 3 }];
    const byField = await collect(datasetEntries(items, 'id'));
    expect(byField.map((e) => (e.kind === 'item' ? e.item.id : e.entry.id))).toEqual([
      'a',
      'b',
      'index:2',
      'index:3',
      '3',
    ]);
    const byPosition = await collect(datasetEntries(['x', 'y'], undefined));
    expect(byPosition.map((e) => e.kind === 'item' && e.item.id)).toEqual(['0', '1']);
    const byFunction = await collect(
      datasetEntries(['x'], () => {
        throw new Error('no');
      }),
    );
    expect(byFunction[0]).toMatchObject({
      kind: 'invalid',
      entry: { error: { code: 'ITEM_ID_INVALID' } },
    });
  });

  it('never throws for any list of values, and keeps ids unique', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue(), { maxLength: 30 }), async (values) => {
        const entries = await collect(datasetEntries(values, 'id'));
        expect(entries).toHaveLength(values.length);
        const ids = entries.map((e) => (e.kind === 'item' ? e.item.id : e.entry.id));
        expect(new Set(ids).size).toBe(ids.length);
      }),
    );
  });

  it('takes positions as ids without remembering them, every entry an item', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.jsonValue(), { maxLength: 30 }), async (values) => {
        const entries = await collect(datasetEntries(values, undefined));
        expect(entries.map((e) => e.kind === 'item' && e.item.id)).toEqual(
          values.map((_, i) => String(i)),
        );
      }),
    );
  });
});
