import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:http';

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * One request with exactly the headers given: `fetch` fills in its own `Host` and `Sec-Fetch-*`,
 * and the tests need to send what a browser on another site (or a rebound DNS name) would.
 * An event stream is read up to its first event, then dropped.
 */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...options.headers };
    // Node sends a DELETE or OPTIONS body with neither length nor chunking unless told.
    if (options.body !== undefined)
      headers['content-length'] = String(Buffer.byteLength(options.body));
    const req = request(url, { method: options.method ?? 'GET', headers });
    req.once('error', reject);
    req.once('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      const done = () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      res.on('data', (chunk: string) => {
        body += chunk;
        if (res.headers['content-type']?.startsWith('text/event-stream') && body.includes('\n\n')) {
          done();
          req.destroy();
        }
      });
      res.once('end', done);
    });
    req.end(options.body);
  });
}
