import { createServer, type IncomingMessage } from 'node:http';

/** One request as the proxy saw it: when it arrived (machine clock, ms), whose, and the answer. */
export interface ProxiedRequest {
  readonly at: number;
  /** The request body's `model`: the test's processes each send their own name there. */
  readonly label: string;
  status: number | undefined;
  /** When the answer was sent back (machine clock, ms). */
  answeredAt: number | undefined;
}

export interface RecordingProxy {
  readonly url: string;
  readonly requests: readonly ProxiedRequest[];
  close(): Promise<void>;
}

const now = (): number => performance.timeOrigin + performance.now();

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      text += chunk;
    });
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/**
 * A pass-through in front of the testkit model server that notes when each request arrived and
 * how it was answered: the testkit server records requests but not their arrival times, which a
 * rate test needs. Forwards method, path, body and the `retry-after-ms` header unchanged.
 */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const origin = new URL(target).origin;
  const requests: ProxiedRequest[] = [];
  const server = createServer((req, res) => {
    const at = now();
    void (async () => {
      const body = await readBody(req);
      let label = '';
      try {
        label = String((JSON.parse(body) as { model?: unknown }).model ?? '');
      } catch {
        // Not JSON: the upstream answers 400, recorded with no label.
      }
      const record: ProxiedRequest = { at, label, status: undefined, answeredAt: undefined };
      requests.push(record);
      const upstream = await fetch(`${origin}${req.url ?? '/'}`, {
        method: req.method ?? 'POST',
        headers: { 'content-type': 'application/json' },
        ...(req.method === 'GET' || req.method === 'HEAD' ? {} : { body }),
      });
      const text = await upstream.text();
      const headers: Record<string, string> = {
        'content-type': upstream.headers.get('content-type') ?? 'application/json',
      };
      const retry = upstream.headers.get('retry-after-ms');
      if (retry !== null) headers['retry-after-ms'] = retry;
      record.status = upstream.status;
      record.answeredAt = now();
      res.writeHead(upstream.status, headers).end(text);
    })().catch((error: unknown) => {
      res.writeHead(502).end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}${new URL(target).pathname}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
