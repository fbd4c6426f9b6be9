import type { IncomingMessage, ServerResponse } from 'node:http';
import { SkeinError } from '@skein/spec';
import type { SkeinEngine } from '../engine/skein-engine.js';
import { checkNumber } from '../util/check-number.js';

export interface WebhookHandlerOptions {
  /** The largest body taken, in bytes: 1 to 2^31 - 1 (default 1 MiB). Larger calls get 413. */
  readonly maxBodyBytes?: number;
}

const BODY_RANGE = { min: 1, max: 2 ** 31 - 1, integer: true } as const;

class BodyTooLarge extends Error {}

function reply(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

/** The body, at most `limit` bytes (refused early by its Content-Length when that says more). */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(new BodyTooLarge());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** The token: the last segment of the path the app mounted the handler on (`/hooks/<token>`). */
function tokenOf(req: IncomingMessage): string {
  const path = (req.url ?? '').split('?')[0] ?? '';
  const last = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(last);
  } catch {
    return '';
  }
}

/**
 * A Node `(req, res)` handler that turns `POST <mount>/<token>` with a JSON body (empty: null)
 * into the event a thread's WAIT_FOR_EVENT waits for, once: made for the app's PUBLIC server
 * (payment or CI callbacks), so it trusts nothing but the token (`engine.createWebhook`), which
 * it checks in constant time, and bounds the body. Answers JSON: 202 delivered, 404 unknown or
 * used token, 409 already delivered, 422 the wait's `match` does not hold, 400 a body that is
 * not JSON, 405 not POST, 413 too large.
 */
export function webhookHandler(
  engine: SkeinEngine,
  options: WebhookHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const limit =
    options.maxBodyBytes === undefined
      ? 1_048_576
      : checkNumber('maxBodyBytes', options.maxBodyBytes, BODY_RANGE);
  return async (req, res) => {
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      reply(res, 405, { error: 'METHOD_NOT_ALLOWED' });
      return;
    }
    let payload: unknown;
    try {
      const body = await readBody(req, limit);
      payload = body.length === 0 ? null : JSON.parse(body.toString('utf8'));
    } catch (error) {
      if (error instanceof BodyTooLarge)
        reply(res, 413, { error: 'BODY_TOO_LARGE', maxBodyBytes: limit });
      else reply(res, 400, { error: 'BODY_NOT_JSON' });
      return;
    }
    try {
      const outcome = await engine.deliverWebhook(tokenOf(req), payload);
      if (outcome.status === 'delivered')
        reply(res, 202, { delivered: true, threadId: outcome.threadId });
      else if (outcome.status === 'taken')
        reply(res, 409, { error: 'ALREADY_DELIVERED', threadId: outcome.threadId });
      else if (outcome.status === 'no-match')
        reply(res, 422, { error: 'EVENT_NOT_MATCHED', threadId: outcome.threadId });
      else reply(res, 404, { error: 'WEBHOOK_NOT_FOUND' });
    } catch (error) {
      const code = SkeinError.isInstance(error) ? error.code : 'INTERNAL_ERROR';
      reply(res, SkeinError.isRetryable(error) ? 503 : 500, { error: code });
    }
  };
}
