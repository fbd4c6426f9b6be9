import { createHash } from 'node:crypto';
import { InvalidArgumentError } from '@skein/conversation';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidToolNameError } from '../errors/invalid-tool-name-error.js';
import { InvalidToolNameMappingError } from '../errors/invalid-tool-name-mapping-error.js';
import { ToolNameCollisionError } from '../errors/tool-name-collision-error.js';
import { UnknownToolNameError } from '../errors/unknown-tool-name-error.js';
import { ToolNameCodec } from './tool-name-codec.js';
import { ANTHROPIC_TOOL_NAME_RULE } from './tool-name-rule.js';

const PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const NINETY =
  'crm.customers v2.lookup customer by email address.and return the full account profile now!';

describe('ToolNameCodec encoding', () => {
  it('keeps a name that fits the rule', () => {
    const codec = new ToolNameCodec();
    const max = 'a'.repeat(64);
    expect(codec.encode('get_weather')).toBe('get_weather');
    expect(codec.encode('Get-Weather-2')).toBe('Get-Weather-2');
    expect(codec.encode(max)).toBe(max);
  });

  it('cuts a long name to limit - 6 and appends _ and 5 hex of its SHA-256', () => {
    const name = 'b'.repeat(65);
    expect(new ToolNameCodec().encode(name)).toBe(`${'b'.repeat(58)}_${sha(name).slice(0, 5)}`);
  });

  it('replaces characters outside the rule with _ and keeps a readable prefix', () => {
    expect(NINETY).toHaveLength(90);
    const encoded = new ToolNameCodec().encode(NINETY);
    expect(encoded).toHaveLength(64);
    expect(encoded).toMatch(PATTERN);
    expect(encoded).toBe(
      `${NINETY.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 58)}_${sha(NINETY).slice(0, 5)}`,
    );
    expect(new ToolNameCodec().encode('a.b')).toBe(`a_b_${sha('a.b').slice(0, 5)}`);
    expect(new ToolNameCodec().encode('météo🌦')).toBe(`m_t_o__${sha('météo🌦').slice(0, 5)}`);
  });

  it('decodes what it encoded and names an unknown encoded name in a typed error', () => {
    const codec = new ToolNameCodec();
    const encoded = codec.encode(NINETY);
    expect(codec.decode(encoded)).toBe(NINETY);
    expect(codec.decode(codec.encode('plain'))).toBe('plain');
    expect(() => codec.decode('never_seen')).toThrow(UnknownToolNameError);
    try {
      codec.decode('never_seen');
    } catch (error) {
      expect(error).toMatchObject({ code: 'UNKNOWN_TOOL_NAME', encodedName: 'never_seen' });
      expect((error as Error).message).toContain('"never_seen"');
    }
    expect(codec.tryDecode('never_seen')).toBeUndefined();
  });

  it('honours a configured limit and pattern', () => {
    const short = new ToolNameCodec({ limit: 16 });
    const encoded = short.encode('a_rather_long_tool_name');
    expect(encoded).toBe(`a_rather_l_${sha('a_rather_long_tool_name').slice(0, 5)}`);
    expect(short.fits('exactly_16_chars')).toBe(true);
    const anthropic = new ToolNameCodec(ANTHROPIC_TOOL_NAME_RULE);
    expect(anthropic.encode('x'.repeat(100))).toBe('x'.repeat(100));
    const dotted = new ToolNameCodec({
      limit: 64,
      pattern: /^[a-zA-Z0-9_.-]{1,64}$/,
      invalidChar: /[^a-zA-Z0-9_.-]/u,
    });
    expect(dotted.encode('crm.lookup')).toBe('crm.lookup');
    expect(dotted.encode('crm lookup')).toBe(`crm_lookup_${sha('crm lookup').slice(0, 5)}`);
  });

  it('rejects bad names and bad options with typed errors', () => {
    const codec = new ToolNameCodec();
    expect(() => codec.encode('')).toThrow(InvalidToolNameError);
    expect(() => codec.encode(42 as unknown as string)).toThrow(InvalidToolNameError);
    expect(() => new ToolNameCodec({ limit: 5 })).toThrow(InvalidArgumentError);
    expect(() => new ToolNameCodec({ limit: 6.5 })).toThrow(InvalidArgumentError);
    const digits = new ToolNameCodec({
      pattern: /^[a-z][a-z0-9_]{0,63}$/,
      invalidChar: /[^a-z0-9_]/,
    });
    expect(() => digits.encode('9.lives')).toThrow(InvalidToolNameError);
  });
});

describe('ToolNameCodec collisions', () => {
  /** Agrees on the first 5 characters for every name: every encoding clashes at length 5. */
  const weak = (text: string) => `00000${sha(text)}`;

  it('lengthens the hash of both clashing names, whatever the order', () => {
    const a = new ToolNameCodec({ hash: weak });
    const b = new ToolNameCodec({ hash: weak });
    const ea = a.encodeMany(['my tool', 'my.tool']);
    const eb = b.encodeMany(['my.tool', 'my tool']);
    // Both move to the shortest hash length at which they differ.
    const [hx, hy] = [sha('my tool'), sha('my.tool')];
    let same = 0;
    while (hx[same] === hy[same]) same++;
    expect(ea).toEqual([
      `my_tool_00000${hx.slice(0, same + 1)}`,
      `my_tool_00000${hy.slice(0, same + 1)}`,
    ]);
    expect(eb).toEqual([ea[1], ea[0]]);
    expect(a.mapping()).toEqual(b.mapping());
    expect(a.decode(ea[0]!)).toBe('my tool');
    expect(a.decode(ea[1]!)).toBe('my.tool');
  });

  it('keeps an encoding given out earlier decodable after a clash lengthened it', () => {
    const codec = new ToolNameCodec({ hash: weak });
    const before = codec.encode('my tool');
    expect(before).toBe('my_tool_00000');
    const after = codec.encodeMany(['my.tool', 'my tool'])[1]!;
    expect(after).not.toBe(before);
    expect(codec.decode(before)).toBe('my tool');
    expect(codec.decode(after)).toBe('my tool');
    expect(Object.keys(codec.mapping())).not.toContain(before);
  });

  it('avoids a name that is already taken unchanged', () => {
    const codec = new ToolNameCodec({ hash: () => 'abcdef0123' });
    const [plain, encoded] = codec.encodeMany(['x_y_abcde', 'x.y']);
    expect(plain).toBe('x_y_abcde');
    expect(encoded).toBe('x_y_abcdef');
  });

  it('fails with a typed error when hashes agree on every usable character, changing nothing', () => {
    const codec = new ToolNameCodec({ hash: () => 'deadbeef' });
    codec.encode('first.one');
    expect(() => codec.encodeMany(['a b', 'a.b'])).toThrow(ToolNameCollisionError);
    expect(codec.tryDecode('a_b_deadb')).toBeUndefined();
    expect(Object.values(codec.mapping())).toEqual(['first.one']);
  });

  it('separates two real names whose SHA-256 agree on 5 hex (found by birthday search)', () => {
    const prefix = `${'analytics.reports.'.repeat(4)}`; // 72 chars: both cut to the same 58
    const seen = new Map<string, string>();
    let pair: [string, string] | undefined;
    for (let i = 0; pair === undefined; i++) {
      const name = `${prefix}${i}`;
      const key = sha(name).slice(0, 5);
      const other = seen.get(key);
      if (other !== undefined) pair = [other, name];
      else seen.set(key, name);
    }
    const [x, y] = pair;
    const forward = new ToolNameCodec();
    const backward = new ToolNameCodec();
    const [ex, ey] = forward.encodeMany([x, y]);
    backward.encodeMany([y, x]);
    expect(forward.mapping()).toEqual(backward.mapping());
    expect(ex).not.toBe(ey);
    expect(ex).toHaveLength(64);
    expect(ex!.slice(-7, -6)).toBe('_');
    expect(ex!.endsWith(sha(x).slice(0, 6))).toBe(true);
    expect(forward.decode(ex!)).toBe(x);
    expect(forward.decode(ey!)).toBe(y);
    // A third name that does not clash keeps the 5-hex form.
    expect(forward.encode(`${prefix}unrelated`).slice(-6, -5)).toBe('_');
  });

  it('is injective, order-independent and reversible for generated clashing sets (property)', () => {
    const names = fc.uniqueArray(
      fc.stringMatching(/^[ab.]{1,3}( |\.)?[ab]{0,2}$/).filter((s) => s.length > 0),
      { minLength: 1, maxLength: 12 },
    );
    // Only two characters of hash entropy at first: clashes everywhere.
    const weakHash = (text: string) => `${sha(text).slice(0, 2)}000${sha(text).slice(2)}`;
    fc.assert(
      fc.property(names, fc.nat(), (list, seed) => {
        const shuffled = [...list].sort(
          (p, q) => sha(p + seed).charCodeAt(0) - sha(q + seed).charCodeAt(0) || (p < q ? -1 : 1),
        );
        const one = new ToolNameCodec({ hash: weakHash });
        const other = new ToolNameCodec({ hash: weakHash });
        const encoded = one.encodeMany(list);
        for (const name of shuffled) other.encode(name);
        expect(other.mapping()).toEqual(one.mapping());
        expect(new Set(encoded).size).toBe(list.length);
        list.forEach((name, i) => {
          expect(encoded[i]).toMatch(PATTERN);
          expect(one.decode(encoded[i]!)).toBe(name);
          if (PATTERN.test(name)) expect(encoded[i]).toBe(name);
        });
      }),
      { numRuns: 300 },
    );
  });
});

describe('ToolNameCodec mapping', () => {
  it('round-trips through mapping() and fromMapping()', () => {
    const codec = new ToolNameCodec();
    const encoded = codec.encodeMany([NINETY, 'plain', 'a.b']);
    const restored = ToolNameCodec.fromMapping(codec.mapping());
    expect(restored.mapping()).toEqual(codec.mapping());
    expect(encoded.map((e) => restored.decode(e))).toEqual([NINETY, 'plain', 'a.b']);
    expect(restored.encode(NINETY)).toBe(encoded[0]);
    expect(Object.keys(codec.mapping())).toEqual([...Object.keys(codec.mapping())].sort());
  });

  it('keeps pinned encodings even when they are not what it would pick', () => {
    const codec = ToolNameCodec.fromMapping({ custom_name: 'some.tool' });
    expect(codec.encode('some.tool')).toBe('custom_name');
    expect(codec.decode('custom_name')).toBe('some.tool');
    expect(() => codec.encode('custom_name')).toThrow(ToolNameCollisionError);
  });

  it.each([
    ['a non-string original', { x: 3 }],
    ['an empty original', { x: '' }],
    ['an encoded name that breaks the rule', { 'x.y': 'x y' }],
    ['a fitting original mapped to another name', { other: 'fits' }],
    ['one original under two names', { a_1: 'a.b', a_2: 'a.b' }],
  ])('rejects %s', (_, mapping) => {
    expect(() => ToolNameCodec.fromMapping(mapping as unknown as Record<string, string>)).toThrow(
      InvalidToolNameMappingError,
    );
  });
});
