import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { ToolNameError, type ToolNameErrorCode } from '../errors/tool-name-error.js';
import { ToolNameCodec } from './tool-name-codec.js';
import { ANTHROPIC_TOOL_NAME_RULE } from './tool-name-rule.js';

const PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** The ToolNameError `action` throws, checked to carry `code`. */
function toolNameError(action: () => unknown, code: ToolNameErrorCode): ToolNameError {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(ToolNameError.isInstance(thrown), String(thrown)).toBe(true);
  expect((thrown as ToolNameError).code).toBe(code);
  return thrown as ToolNameError;
}
// Only for building injected hash functions; expected default suffixes below are literals taken
// from Python's `hashlib.md5(name.encode()).hexdigest()[:5]`, not from the code under test.
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

  it('cuts a long name to limit - 6 and appends _ and 5 hex of its MD5, as the original scheme', () => {
    // hashlib.md5(('b' * 65).encode()).hexdigest()[:5] == '94622'
    expect(new ToolNameCodec().encode('b'.repeat(65))).toBe(`${'b'.repeat(58)}_94622`);
  });

  it("uses SHA-256 instead with hash: 'sha256'", () => {
    const name = 'b'.repeat(65);
    const codec = new ToolNameCodec({ hash: 'sha256' });
    expect(codec.encode(name)).toBe(`${'b'.repeat(58)}_${sha(name).slice(0, 5)}`);
    expect(codec.encode('a.b')).toBe('a_b_2e733');
    expect(new ToolNameCodec({ hash: 'md5' }).encode('a.b')).toBe('a_b_e32b6');
    expect(() => new ToolNameCodec({ hash: 'sha1' as 'md5' })).toThrow(InvalidArgumentError);
  });

  it('replaces characters outside the rule with _ and keeps a readable prefix', () => {
    expect(NINETY).toHaveLength(90);
    const encoded = new ToolNameCodec().encode(NINETY);
    expect(encoded).toHaveLength(64);
    expect(encoded).toMatch(PATTERN);
    expect(encoded).toBe('crm_customers_v2_lookup_customer_by_email_address_and_retu_eb563');
    expect(new ToolNameCodec().encode('a.b')).toBe('a_b_e32b6');
    // The hash is of the UTF-8 bytes, as `name.encode()` in Python.
    expect(new ToolNameCodec().encode('météo🌦')).toBe('m_t_o__3e031');
  });

  it('decodes what it encoded and names an unknown encoded name in a typed error', () => {
    const codec = new ToolNameCodec();
    const encoded = codec.encode(NINETY);
    expect(codec.decode(encoded)).toBe(NINETY);
    expect(codec.decode(codec.encode('plain'))).toBe('plain');
    toolNameError(() => codec.decode('never_seen'), 'UNKNOWN_TOOL_NAME');
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
    expect(encoded).toBe('a_rather_l_beceb');
    expect(short.fits('exactly_16_chars')).toBe(true);
    const anthropic = new ToolNameCodec(ANTHROPIC_TOOL_NAME_RULE);
    expect(anthropic.encode('x'.repeat(100))).toBe('x'.repeat(100));
    const dotted = new ToolNameCodec({
      limit: 64,
      pattern: /^[a-zA-Z0-9_.-]{1,64}$/,
      invalidChar: /[^a-zA-Z0-9_.-]/u,
    });
    expect(dotted.encode('crm.lookup')).toBe('crm.lookup');
    expect(dotted.encode('crm lookup')).toBe('crm_lookup_9edec');
  });

  it('rejects bad names and bad options with typed errors', () => {
    const codec = new ToolNameCodec();
    toolNameError(() => codec.encode(''), 'INVALID_TOOL_NAME');
    toolNameError(() => codec.encode(42 as unknown as string), 'INVALID_TOOL_NAME');
    expect(() => new ToolNameCodec({ limit: 5 })).toThrow(InvalidArgumentError);
    expect(() => new ToolNameCodec({ limit: 6.5 })).toThrow(InvalidArgumentError);
    const digits = new ToolNameCodec({
      pattern: /^[a-z][a-z0-9_]{0,63}$/,
      invalidChar: /[^a-z0-9_]/,
    });
    toolNameError(() => digits.encode('9.lives'), 'INVALID_TOOL_NAME');
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
    toolNameError(() => codec.encodeMany(['a b', 'a.b']), 'TOOL_NAME_COLLISION');
    expect(codec.tryDecode('a_b_deadb')).toBeUndefined();
    expect(Object.values(codec.mapping())).toEqual(['first.one']);
  });

  it('separates two real names whose MD5 agree on 5 hex (found by birthday search)', () => {
    // Found with Python: md5 of x starts 783dfe65, of y 783dfb05. Both are cut to the same 57.
    const prefix = `${'analytics.reports.'.repeat(4)}`;
    const [x, y] = [`${prefix}650`, `${prefix}827`];
    const forward = new ToolNameCodec();
    const backward = new ToolNameCodec();
    const [ex, ey] = forward.encodeMany([x, y]);
    backward.encodeMany([y, x]);
    expect(forward.mapping()).toEqual(backward.mapping());
    expect(ex).toBe('analytics_reports_analytics_reports_analytics_reports_ana_783dfe');
    expect(ey).toBe('analytics_reports_analytics_reports_analytics_reports_ana_783dfb');
    expect(forward.decode(ex!)).toBe(x);
    expect(forward.decode(ey!)).toBe(y);
    // A third name that does not clash keeps the 5-hex form.
    expect(forward.encode(`${prefix}unrelated`)).toBe(
      'analytics_reports_analytics_reports_analytics_reports_anal_4db3f',
    );
  });

  it('is injective, order-independent and reversible for names registered together (property)', () => {
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
        other.encodeMany(shuffled);
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

describe('ToolNameCodec encodings handed out', () => {
  it('keeps decoding a.b after a tool literally named like its encoding is registered', () => {
    const codec = new ToolNameCodec();
    expect(codec.encode('a.b')).toBe('a_b_e32b6');
    // The later name fits the rule, but its literal form already means a.b to the model.
    const literal = codec.encode('a_b_e32b6');
    expect(codec.decode('a_b_e32b6')).toBe('a.b');
    // hashlib.md5(b'a_b_e32b6').hexdigest()[:5] == 'd7aa4'
    expect(literal).toBe('a_b_e32b6_d7aa4');
    expect(codec.decode(literal)).toBe('a_b_e32b6');
    expect(codec.encode('a.b')).toBe('a_b_e32b6');
    expect(codec.mapping()).toEqual({ a_b_e32b6: 'a.b', a_b_e32b6_d7aa4: 'a_b_e32b6' });
    const restored = ToolNameCodec.fromMapping(codec.mapping());
    expect(restored.decode('a_b_e32b6')).toBe('a.b');
    expect(restored.encode('a_b_e32b6')).toBe('a_b_e32b6_d7aa4');
  });

  it('keeps the observed SHA-256 case (a_b_2e733) decoding to a.b', () => {
    const codec = new ToolNameCodec({ hash: 'sha256' });
    expect(codec.encode('a.b')).toBe('a_b_2e733');
    expect(codec.encode('a_b_2e733')).not.toBe('a_b_2e733');
    expect(codec.decode('a_b_2e733')).toBe('a.b');
  });

  it('keeps a literal name unchanged when both are registered together', () => {
    const codec = new ToolNameCodec();
    // Nothing was handed out yet, so the name that fits stays and a.b takes a longer hash.
    expect(codec.encodeMany(['a.b', 'a_b_e32b6'])).toEqual(['a_b_e32b62', 'a_b_e32b6']);
    expect(codec.decode('a_b_e32b6')).toBe('a_b_e32b6');
  });

  it('never lets an encoding decode to another name across any history of registrations (property)', () => {
    const weakHash = (text: string) => `${sha(text).slice(0, 2)}000${sha(text).slice(2)}`;
    const step = fc.oneof(
      fc.record({ name: fc.stringMatching(/^[ab_.]{1,4}( |\.)?[ab0-9_]{0,6}$/) }),
      // Register, as a name of its own, the literal of an encoding given out earlier.
      fc.record({ literalOf: fc.nat() }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(step, { minLength: 1, maxLength: 3 }), { maxLength: 12 }),
        (batches) => {
          const codec = new ToolNameCodec({ hash: weakHash });
          const given = new Map<string, string>();
          for (const batch of batches) {
            const names = batch.map((s) => {
              if ('name' in s) return s.name;
              const all = [...given.keys()];
              return all.length === 0 ? 'x.y' : all[s.literalOf % all.length]!;
            });
            codec.encodeMany(names).forEach((encoded, i) => {
              expect(encoded).toMatch(PATTERN);
              expect(given.get(encoded) ?? names[i]).toBe(names[i]);
              given.set(encoded, names[i]!);
            });
            for (const [encoded, original] of given) expect(codec.decode(encoded)).toBe(original);
            const originals = Object.values(codec.mapping());
            expect(new Set(originals).size).toBe(originals.length);
          }
        },
      ),
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
    // A tool literally named custom_name is encoded around the pinned name (md5 prefix 980fd).
    expect(codec.encode('custom_name')).toBe('custom_name_980fd');
    expect(codec.decode('custom_name')).toBe('some.tool');
  });

  it.each([
    ['a non-string original', { x: 3 }],
    ['an empty original', { x: '' }],
    ['an encoded name that breaks the rule', { 'x.y': 'x y' }],
    ['a fitting original mapped to another name', { other: 'fits' }],
    ['one original under two names', { a_1: 'a.b', a_2: 'a.b' }],
  ])('rejects %s', (_, mapping) => {
    toolNameError(
      () => ToolNameCodec.fromMapping(mapping as unknown as Record<string, string>),
      'INVALID_TOOL_NAME_MAPPING',
    );
  });
});
