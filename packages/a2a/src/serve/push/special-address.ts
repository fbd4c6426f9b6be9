import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which literal addresses a push URL may not name by default: the ones that reach this machine or
 * its own network rather than the caller's public server (loopback, private, link-local, unique
 * local, and the unspecified, shared, multicast and reserved ranges beside them). A caller could
 * otherwise make the agent POST to its metadata service, its database's HTTP port or a router.
 */
const IPV4_RANGES: readonly (readonly [string, number])[] = [
  ['0.0.0.0', 8], // "this network": 0.0.0.0 reaches the local host
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // shared address space (carrier-grade NAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata services live here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

function ipv4Value(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

function inIpv4Range(value: number, [base, bits]: readonly [string, number]): boolean {
  const size = 2 ** (32 - bits);
  return Math.floor(value / size) === Math.floor(ipv4Value(base) / size);
}

function isSpecialIpv4(address: string): boolean {
  const value = ipv4Value(address);
  return IPV4_RANGES.some((range) => inIpv4Range(value, range));
}

/** The eight 16-bit groups of an IPv6 address (`::` expanded, a dotted IPv4 tail read as two). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const value = ipv4Value(dotted[1]);
    tail.push(Math.floor(value / 65_536), value % 65_536);
    text = text.slice(0, -dotted[1].length);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const [head = '', rest] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const before = groups(head);
  const after = [...(rest === undefined ? [] : groups(rest)), ...tail];
  const zeros = rest === undefined ? 0 : 8 - before.length - after.length;
  return [...before, ...new Array<number>(zeros).fill(0), ...after];
}

function embeddedIpv4(high: number, low: number): string {
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

function isSpecialIpv6(address: string): boolean {
  const g = ipv6Groups(address);
  const [a = 0, b = 0, , , , f = 0, h7 = 0, h8 = 0] = g;
  const zeroUpTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  // ::, ::1 and the IPv4-compatible ::a.b.c.d: judged as the IPv4 address they carry (:: and ::1
  // carry 0.0.0.0 and 0.0.0.1, both in "this network").
  if (zeroUpTo(6)) return isSpecialIpv4(embeddedIpv4(h7, h8));
  // IPv4-mapped ::ffff:a.b.c.d and the NAT64 prefix 64:ff9b::/96 reach the IPv4 address inside.
  if (zeroUpTo(5) && f === 0xffff) return isSpecialIpv4(embeddedIpv4(h7, h8));
  if (a === 0x64 && b === 0xff9b && g.slice(2, 6).every((x) => x === 0))
    return isSpecialIpv4(embeddedIpv4(h7, h8));
  // 6to4 (2002::/16) carries its IPv4 address in the next 32 bits.
  if (a === 0x2002) return isSpecialIpv4(embeddedIpv4(b, g[2] ?? 0));
  if (a === 0x100 && g.slice(1, 4).every((x) => x === 0)) return true; // discard-only 100::/64
  if ((a & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((a & 0xffc0) === 0xfe80) return true; // link-local fe80::/10
  if ((a & 0xffc0) === 0xfec0) return true; // site-local fec0::/10 (deprecated, still routed inside)
  if ((a & 0xff00) === 0xff00) return true; // multicast ff00::/8
  return false;
}

/**
 * Whether `hostname` (as a WHATWG URL gives it: IPv4 dotted, IPv6 in brackets, names lowercased)
 * is `localhost` or a literal address of the ranges above. Names other than `localhost` are not
 * resolved here: what a name resolves to is the network's business (see the README).
 */
export function isSpecialHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIPv4(host)) return isSpecialIpv4(host);
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIPv6(bare)) return isSpecialIpv6(bare);
  return false;
}
