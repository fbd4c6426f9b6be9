import { describe, expect, it } from 'vitest';
import { hostsByPort } from './hosts-by-port.js';

describe('hostsByPort', () => {
  it("answers each port's loopback names and the extra hosts, and keeps each port's set", () => {
    const hostsFor = hostsByPort(['Proxy.Example:443']);
    const first = hostsFor(4820);
    expect([...first]).toEqual([
      '127.0.0.1:4820',
      'localhost:4820',
      '[::1]:4820',
      'proxy.example:443',
    ]);
    expect(hostsFor(4820)).toBe(first);
    expect(hostsFor(4821).has('localhost:4821')).toBe(true);
    expect(hostsFor(4821).has('localhost:4820')).toBe(false);
  });

  it('takes its extra hosts when made: a caller changing its array later changes nothing', () => {
    const extra = ['a.example:80'];
    const hostsFor = hostsByPort(extra);
    extra.push('b.example:80');
    expect(hostsFor(80).has('b.example:80')).toBe(false);
  });
});
