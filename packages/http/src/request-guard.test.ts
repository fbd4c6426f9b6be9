import { describe, expect, it } from 'vitest';
import { HttpRequestError } from './http-request-error.js';
import {
  allowedHosts,
  allowedOrigins,
  type GuardedHeaders,
  guardHeaders,
  guardRequest,
} from './request-guard.js';

const hosts = allowedHosts(4820);

/** The code `guardHeaders` refuses with, or `undefined` when it lets the request through. */
function refusal(
  request: Partial<GuardedHeaders>,
  options: {
    writesOnly?: boolean;
    hosts?: ReadonlySet<string> | null;
    allowedOrigins?: ReadonlySet<string>;
  } = {},
): string | undefined {
  try {
    const { hosts: given, ...guard } = options;
    guardHeaders(
      { method: 'POST', host: '127.0.0.1:4820', ...request },
      given === undefined ? hosts : given,
      guard,
    );
    return undefined;
  } catch (error) {
    if (!HttpRequestError.isInstance(error)) throw error;
    return `${error.code} ${error.httpStatus}`;
  }
}

describe('allowedHosts', () => {
  it('answers the loopback names with the port, and without it only on 80', () => {
    expect([...allowedHosts(4820)]).toEqual(['127.0.0.1:4820', 'localhost:4820', '[::1]:4820']);
    expect(allowedHosts(80)).toEqual(
      new Set(['127.0.0.1:80', '127.0.0.1', 'localhost:80', 'localhost', '[::1]:80', '[::1]']),
    );
  });

  it('adds the bound address (IPv6 in brackets) and the extra hosts, lower-cased', () => {
    const bound = allowedHosts(9000, { boundHost: '10.0.0.7', extra: ['Proxy.Example:443'] });
    expect(bound.has('10.0.0.7:9000')).toBe(true);
    expect(bound.has('proxy.example:443')).toBe(true);
    expect(allowedHosts(9000, { boundHost: 'FE80::1' }).has('[fe80::1]:9000')).toBe(true);
    expect(allowedHosts(9000, { boundHost: '[::1]' }).size).toBe(3);
  });
});

describe('guardHeaders', () => {
  it('refuses another Host (421), a missing one, and an absolute-form target naming another', () => {
    expect(refusal({})).toBeUndefined();
    expect(refusal({ host: 'LOCALHOST:4820' })).toBeUndefined();
    expect(refusal({ host: 'evil.example:4820' })).toBe('HOST_NOT_ALLOWED 421');
    expect(refusal({ host: '127.0.0.1.nip.io:4820', method: 'GET' })).toBe('HOST_NOT_ALLOWED 421');
    expect(refusal({ host: undefined })).toBe('HOST_NOT_ALLOWED 421');
    expect(refusal({ host: null })).toBe('HOST_NOT_ALLOWED 421');
    expect(refusal({ target: 'http://evil.example/mcp' })).toBe('HOST_NOT_ALLOWED 421');
    expect(refusal({ target: 'http://127.0.0.1:4820/mcp' })).toBeUndefined();
    expect(refusal({ target: '/mcp?x=http://evil.example' })).toBeUndefined();
  });

  it('skips the Host check when hosts is null, not the origin check', () => {
    expect(refusal({ host: 'app.example' }, { hosts: null })).toBeUndefined();
    expect(refusal({ host: 'app.example', origin: 'http://evil.example' }, { hosts: null })).toBe(
      'CROSS_ORIGIN_REFUSED 403',
    );
  });

  it('refuses writes from another origin (403) by Origin or Sec-Fetch-Site', () => {
    expect(
      refusal({ origin: 'http://127.0.0.1:4820', secFetchSite: 'same-origin' }),
    ).toBeUndefined();
    expect(refusal({ secFetchSite: 'none' })).toBeUndefined();
    expect(refusal({ origin: 'http://evil.example' })).toBe('CROSS_ORIGIN_REFUSED 403');
    expect(refusal({ origin: 'http://127.0.0.1:1' })).toBe('CROSS_ORIGIN_REFUSED 403');
    expect(refusal({ origin: 'null' })).toBe('CROSS_ORIGIN_REFUSED 403');
    expect(refusal({ secFetchSite: 'same-site' })).toBe('CROSS_ORIGIN_REFUSED 403');
    expect(refusal({ method: 'DELETE', secFetchSite: 'cross-site' })).toBe(
      'CROSS_ORIGIN_REFUSED 403',
    );
  });

  it('lets reads from another origin through, unless writesOnly is false', () => {
    const foreignGet = { method: 'GET', origin: 'http://evil.example' };
    expect(refusal(foreignGet)).toBeUndefined();
    expect(refusal({ method: 'HEAD', secFetchSite: 'cross-site' })).toBeUndefined();
    expect(refusal(foreignGet, { writesOnly: false })).toBe('CROSS_ORIGIN_REFUSED 403');
    expect(refusal({ method: 'GET', secFetchSite: 'cross-site' }, { writesOnly: false })).toBe(
      'CROSS_ORIGIN_REFUSED 403',
    );
    expect(
      refusal({ method: 'GET', origin: 'http://127.0.0.1:4820' }, { writesOnly: false }),
    ).toBeUndefined();
  });

  it('counts OPTIONS as a write: its origin is checked', () => {
    expect(refusal({ method: 'OPTIONS', origin: 'http://evil.example' })).toBe(
      'CROSS_ORIGIN_REFUSED 403',
    );
    expect(refusal({ method: 'OPTIONS', secFetchSite: 'cross-site' })).toBe(
      'CROSS_ORIGIN_REFUSED 403',
    );
  });

  it('checks a fetch Request’s URL as its target: another host there is 421', () => {
    const loopback = { host: '127.0.0.1:4820' };
    const absolute = new Request('http://evil.example:4820/api/chat', { headers: loopback });
    expect(() => guardRequest(absolute, hosts)).toThrow(
      expect.objectContaining({ code: 'HOST_NOT_ALLOWED' }),
    );
    expect(() =>
      guardRequest(new Request('http://localhost:4820/api', { headers: loopback }), hosts),
    ).not.toThrow();
    expect(() => guardRequest(absolute, null)).not.toThrow();
  });

  it('reads the same headers from a fetch Request (guardRequest)', () => {
    const request = (headers: Record<string, string>, method = 'POST') =>
      new Request('http://127.0.0.1:4820/api', { method, headers });
    expect(() => guardRequest(request({ host: '127.0.0.1:4820' }), hosts)).not.toThrow();
    expect(() => guardRequest(request({ host: 'evil.example' }), hosts)).toThrow(/evil\.example/);
    const foreign = request({ host: '127.0.0.1:4820', origin: 'http://evil.example' }, 'GET');
    expect(() => guardRequest(foreign, hosts)).not.toThrow();
    expect(() => guardRequest(foreign, hosts, { writesOnly: false })).toThrow(
      expect.objectContaining({ code: 'CROSS_ORIGIN_REFUSED', origin: 'http://evil.example' }),
    );
  });

  it('says what it refused, cut to a readable length', () => {
    try {
      guardHeaders({ method: 'POST', host: 'x'.repeat(500) }, hosts);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'HOST_NOT_ALLOWED', host: 'x'.repeat(100) });
    }
  });
});

describe('a deployed page: its own origin over https, and the origins the app names', () => {
  const app = { host: 'app.example.com', method: 'POST' };

  it('takes a page of the request’s own origin over the scheme the request came over', () => {
    expect(
      refusal({ ...app, scheme: 'https', origin: 'https://app.example.com' }, { hosts: null }),
    ).toBeUndefined();
    // The same host over the other scheme is another origin.
    expect(
      refusal({ ...app, scheme: 'https', origin: 'http://app.example.com' }, { hosts: null }),
    ).toBe('CROSS_ORIGIN_REFUSED 403');
    expect(refusal({ ...app, origin: 'https://app.example.com' }, { hosts: null })).toBe(
      'CROSS_ORIGIN_REFUSED 403',
    );
    // A default port is no part of an origin as browsers send it.
    expect(
      refusal(
        { host: 'app.example.com:443', scheme: 'https', origin: 'https://app.example.com' },
        { hosts: null },
      ),
    ).toBeUndefined();
  });

  it('reads the scheme from a fetch Request’s URL, as a route handler or Hono gives it', () => {
    const browser = (origin: string, site: string) =>
      new Request('https://app.example.com/api/chat', {
        method: 'POST',
        headers: { host: 'app.example.com', origin, 'sec-fetch-site': site },
      });
    expect(() =>
      guardRequest(browser('https://app.example.com', 'same-origin'), null),
    ).not.toThrow();
    expect(() => guardRequest(browser('https://evil.example', 'cross-site'), null)).toThrow(
      expect.objectContaining({ code: 'CROSS_ORIGIN_REFUSED', httpStatus: 403 }),
    );
    // A Request made in code may have no Host header: its URL says where it goes.
    const bare = new Request('https://app.example.com/api/chat', {
      method: 'POST',
      headers: { origin: 'https://app.example.com' },
    });
    expect(() => guardRequest(bare, null)).not.toThrow();
  });

  it('takes the origins the app names, from any site, and refuses every other', () => {
    const named = allowedOrigins(['https://App.Example.com', 'http://localhost:5173/']);
    expect([...named]).toEqual(['https://app.example.com', 'http://localhost:5173']);
    const api = { host: 'api.example.com', scheme: 'https' as const, method: 'POST' };
    const from = (origin: string, secFetchSite: string) =>
      refusal({ ...api, origin, secFetchSite }, { hosts: null, allowedOrigins: named });
    expect(from('https://app.example.com', 'same-site')).toBeUndefined();
    expect(from('http://localhost:5173', 'cross-site')).toBeUndefined();
    expect(from('https://api.example.com', 'same-origin')).toBeUndefined();
    expect(from('https://evil.example', 'cross-site')).toBe('CROSS_ORIGIN_REFUSED 403');
    expect(from('https://app.example.com.evil.example', 'cross-site')).toBe(
      'CROSS_ORIGIN_REFUSED 403',
    );
    expect(from('null', 'cross-site')).toBe('CROSS_ORIGIN_REFUSED 403');
    // The page's own origin with a Sec-Fetch-Site that says another site: no browser sends that.
    expect(from('https://api.example.com', 'cross-site')).toBe('CROSS_ORIGIN_REFUSED 403');
    // Without an Origin, a browser's Sec-Fetch-Site still speaks for the page.
    expect(
      refusal({ ...api, secFetchSite: 'cross-site' }, { hosts: null, allowedOrigins: named }),
    ).toBe('CROSS_ORIGIN_REFUSED 403');
  });

  it.each([
    ['https://app.example.com/chat', 'allowedOrigins[0]'],
    ['app.example.com', 'allowedOrigins[0]'],
    ['*', 'allowedOrigins[0]'],
    ['https://user:pw@app.example.com', 'allowedOrigins[0]'],
    ['https://app.example.com?x=1', 'allowedOrigins[0]'],
    ['ftp://files.example.com', 'allowedOrigins[0]'],
  ])('refuses %j as an origin, naming where it is', (origin, where) => {
    expect(() => allowedOrigins([origin])).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: where }),
    );
  });
});
