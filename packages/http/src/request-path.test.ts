import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { HttpRequestError } from './http-request-error.js';
import { decodePath, decodePathSegment, requestUrl, targetHost } from './request-path.js';

function refusal(run: () => unknown): string {
  try {
    run();
    return 'accepted';
  } catch (error) {
    return HttpRequestError.isInstance(error) ? `${error.code} ${error.httpStatus}` : String(error);
  }
}

const nodeRequest = (url: string, host?: string) =>
  ({ url, headers: host === undefined ? {} : { host } }) as IncomingMessage;

describe('decodePath', () => {
  it('decodes each segment, dropping empty ones', () => {
    expect(decodePath('/threads/a%20b/messages')).toEqual(['threads', 'a b', 'messages']);
    expect(decodePath('//x///y/')).toEqual(['x', 'y']);
    expect(decodePath('/%E2%82%AC%2F')).toEqual(['€/']);
    expect(decodePath('/')).toEqual([]);
  });

  it('refuses a malformed percent-escape with 400 INVALID_PATH, naming the path', () => {
    for (const path of ['/threads/%E0%A4%A/messages', '/%/', '/a/%zz', '/%C0%80'])
      expect([path, refusal(() => decodePath(path))]).toEqual([path, 'INVALID_PATH 400']);
    expect(() => decodePath('/a/%')).toThrow(expect.objectContaining({ path: '/a/%' }));
    expect(refusal(() => decodePathSegment('%', '/hooks/%'))).toBe('INVALID_PATH 400');
  });
});

describe('requestUrl and targetHost', () => {
  it('takes the path under the Host, and an absolute-form target as it is', () => {
    expect(requestUrl(nodeRequest('/a?b=1', '127.0.0.1:4820')).href).toBe(
      'http://127.0.0.1:4820/a?b=1',
    );
    expect(requestUrl(nodeRequest('http://evil.example:1/x', '127.0.0.1')).host).toBe(
      'evil.example:1',
    );
    expect(targetHost('http://Evil.Example:1/x')).toBe('evil.example:1');
    expect(targetHost('/x?to=http://evil.example')).toBeUndefined();
  });

  it('never reads a path as a host, and survives a Host that is no host', () => {
    const url = requestUrl(nodeRequest('//evil.example/x', '127.0.0.1:4820'));
    expect([url.host, url.pathname]).toEqual(['127.0.0.1:4820', '//evil.example/x']);
    expect(requestUrl(nodeRequest('/x', 'not a host')).href).toBe('http://localhost/x');
    expect(requestUrl(nodeRequest('*')).href).toBe('http://localhost/*');
  });
});
