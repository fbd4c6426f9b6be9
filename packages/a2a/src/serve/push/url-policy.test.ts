import { BlockList } from 'node:net';
import { RequestMalformedError } from '@a2a-js/sdk/errors';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPushUrl, isPublicHttpsUrl } from './url-policy.js';

// The ranges the default policy refuses, written again for Node's own BlockList: an oracle that
// shares no code with the policy. An IPv6 address carrying an IPv4 one (mapped, compatible,
// NAT64, 6to4) is refused when the IPv4 address is.
const V4: readonly [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
const oracle = new BlockList();
for (const [base, bits] of V4) {
  const [a = 0, b = 0, c = 0, d = 0] = base.split('.').map(Number);
  oracle.addSubnet(base, bits, 'ipv4');
  oracle.addSubnet(`::${base}`, 96 + bits, 'ipv6');
  oracle.addSubnet(`::ffff:${base}`, 96 + bits, 'ipv6');
  oracle.addSubnet(`64:ff9b::${base}`, 96 + bits, 'ipv6');
  oracle.addSubnet(`2002:${hex(a, b)}:${hex(c, d)}::`, 16 + bits, 'ipv6');
}
for (const [base, bits] of [
  ['100::', 64],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  oracle.addSubnet(base, bits, 'ipv6');

const refusedByOracle = (address: string) =>
  oracle.check(address, address.includes(':') ? 'ipv6' : 'ipv4');

const v4InRange = fc.constantFrom(...V4).chain(([base, bits]) =>
  fc.integer({ min: 0, max: 2 ** (32 - bits) - 1 }).map((offset) => {
    const value = base.split('.').reduce((v, o) => v * 256 + Number(o), 0) + offset;
    return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
  }),
);
const v6Special = fc.oneof(
  v4InRange.map((v4) => `::ffff:${v4}`),
  v4InRange.map((v4) => `64:ff9b::${v4}`),
  v4InRange.map((v4) => {
    const [a = 0, b = 0, c = 0, d = 0] = v4.split('.').map(Number);
    return `2002:${hex(a, b)}:${hex(c, d)}::1`;
  }),
  fc.constantFrom('::', '::1', 'fc00::1', 'fd12:3456::9', 'fe80::1', 'febf::', 'ff02::1', '100::7'),
);

describe('the default push URL policy', () => {
  it('refuses exactly the loopback, private, link-local and unique-local literals (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), v4InRange, fc.ipV6(), v6Special), (address) => {
        const host = address.includes(':') ? `[${address}]` : address;
        const url = new URL(`https://${host}/hook`);
        expect(isPublicHttpsUrl(url)).toBe(!refusedByOracle(address));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a loopback address however it is spelled (property)', () => {
    const spellings = fc.integer({ min: 0, max: 2 ** 24 - 1 }).chain((low) => {
      const value = 127 * 2 ** 24 + low;
      const octets = [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256);
      return fc.constantFrom(
        octets.join('.'),
        String(value),
        `0x${value.toString(16)}`,
        `0x7f.${low}`,
        octets.map((o) => `0${o.toString(8)}`).join('.'),
        `${octets.join('.')}.`,
        `[::ffff:${octets.join('.')}]`,
      );
    });
    fc.assert(
      fc.property(spellings, (host) => {
        expect(isPublicHttpsUrl(new URL(`https://${host}/`))).toBe(false);
      }),
    );
  });

  it('refuses localhost names, http and other schemes; takes public https hosts', () => {
    for (const url of [
      'https://localhost/',
      'https://LOCALHOST./x',
      'https://hooks.localhost/',
      'http://hooks.example.com/',
      'ftp://hooks.example.com/',
    ])
      expect(isPublicHttpsUrl(new URL(url)), url).toBe(false);
    for (const url of [
      'https://hooks.example.com/a2a?x=1',
      'https://8.8.8.8/',
      'https://[2001:4860::8888]/',
    ])
      expect(isPublicHttpsUrl(new URL(url)), url).toBe(true);
  });
});

describe('checkPushUrl', () => {
  const refusal = async (raw: unknown, allow?: (url: URL) => boolean) => {
    const error = await checkPushUrl(raw, 'url', allow).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error, String(raw)).toBeInstanceOf(RequestMalformedError);
    return (error as Error).message;
  };

  it('refuses what is not an http(s) URL, or carries credentials, whatever allowUrl says (property)', async () => {
    const allowAll = () => true;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string(),
          fc.webUrl().map((u) => u.replace(/^https?:/, 'file:')),
          fc.constantFrom(
            'data:text/plain,hi',
            'javascript:alert(1)',
            'ws://127.0.0.1/',
            'gopher://x/',
          ),
          fc.webUrl().map((u) => u.replace('://', '://user:secret@')),
        ),
        async (raw) => {
          const url = URL.canParse(raw) ? new URL(raw) : undefined;
          const fine =
            url !== undefined &&
            (url.protocol === 'http:' || url.protocol === 'https:') &&
            url.username === '' &&
            url.password === '';
          if (fine) return;
          expect(await refusal(raw, allowAll)).toMatch(/^url /);
        },
      ),
    );
  });

  it('names the field, and lets allowUrl replace the default policy', async () => {
    expect(await refusal('http://127.0.0.1:9/hook')).toMatch(/^url .*refused: .*public https/);
    expect(await refusal('file:///etc/passwd')).toMatch(/^url must be an https URL.*file:/);
    expect(await refusal('')).toMatch(/^url is missing/);
    expect(await refusal('https://x.example/'.padEnd(3000, 'a'))).toMatch(/longer than 2048/);
    const local = (url: URL) => url.hostname === '127.0.0.1';
    await expect(checkPushUrl('http://127.0.0.1:9/hook', 'url', local)).resolves.toBeInstanceOf(
      URL,
    );
    expect(await refusal('https://hooks.example.com/', local)).toMatch(
      /refused by this agent's allowUrl/,
    );
  });
});
