import { request } from 'node:http';

export interface OversizedResult {
  readonly status: number;
  readonly body: string;
  /** Bytes of the body written before the answer came (an upper bound of what the server read). */
  readonly sent: number;
  /** Whether the whole body was written before the answer came. */
  readonly finished: boolean;
}

/**
 * POSTs `total` bytes one chunk per turn of the event loop (with a Content-Length, or chunked),
 * and stops writing as soon as the answer's head arrives. A server that answers without reading
 * the body answers long before the last chunk; one that reads it all answers only after.
 */
export function sendOversized(
  url: string,
  options: {
    headers: Record<string, string>;
    total: number;
    chunked: boolean;
    chunkSize?: number;
  },
): Promise<OversizedResult> {
  const chunkSize = options.chunkSize ?? 64 * 1024;
  const headers: Record<string, string> = { ...options.headers };
  if (!options.chunked) headers['content-length'] = String(options.total);
  const chunk = Buffer.alloc(chunkSize, 0x20);
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers });
    let sent = 0;
    let finished = false;
    let answered = false;
    req.once('response', (res) => {
      answered = true;
      const atAnswer = { sent, finished };
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (text: string) => {
        body += text;
      });
      res.once('end', () => {
        resolve({ status: res.statusCode ?? 0, body, ...atAnswer });
        req.destroy();
      });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const pump = () => {
      if (answered || req.destroyed) return;
      if (sent >= options.total) {
        finished = true;
        req.end();
        return;
      }
      const size = Math.min(chunkSize, options.total - sent);
      sent += size;
      // setImmediate: the next chunk only after the event loop has looked for the answer.
      req.write(size === chunkSize ? chunk : chunk.subarray(0, size), () => setImmediate(pump));
    };
    req.flushHeaders();
    pump();
  });
}
