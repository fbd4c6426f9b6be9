import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SkeinEngine } from '@skein/core';
import { InvalidArgumentError, SkeinError } from '@skein/spec';
import { HttpRequestError } from './http-request-error.js';
import { readJsonBody } from './json-body.js';

export interface WebhookHandlerOptions {
  /** The largest body taken, in bytes: 1 to 2^31 - 1 (default 1 MiB). Larger calls get 413. */
  readonly maxBodyBytes?: number;
}

const DEFAULT_MAX_BODY = 1_048_576;

function reply(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
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

function checkLimit(maxBodyBytes: number | undefined): number {
  if (maxBodyBytes === undefined) return DEFAULT_MAX_BODY;
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1 || maxBodyBytes > 2 ** 31 - 1)
    throw new InvalidArgumentError(
      'maxBodyBytes',
      `maxBodyBytes must be an integer from 1 to 2^31 - 1, got ${maxBodyBytes}`,
    );
  return maxBodyBytes;
}

/**
 * A Node `(req, res)` handler that turns `POST <mount>/<token>` with a JSON body (empty: null)
 * into the event a thread's WAIT_FOR_EVENT waits for, once (`engine.createWebhook` makes the
 * token). Unlike `serveLocal`, it is made for the app's PUBLIC server (payment or CI callbacks):
 * it trusts nothing but the token, which the engine checks in constant time, and bounds the body
 * before reading it. Answers JSON: 202 delivered, 404 unknown or used token, 409 already
 * delivered, 422 the wait's `match` does not hold, 400 a body that is not JSON, 405 not POST,
 * 413 too large, 415 not `application/json`.
 */
export function webhookHandler(
  engine: SkeinEngine,
  options: WebhookHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const limit = checkLimit(options.maxBodyBytes);
  return async (req, res) => {
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      reply(res, 405, { error: 'METHOD_NOT_ALLOWED' });
      return;
    }
    let payload: unknown;
    try {
      payload = (await readJsonBody(req, limit)) ?? null;
    } catch (error) {
      if (!HttpRequestError.isInstance(error)) throw error;
      // An unread rest of the body is not read to keep the connection.
      if (!req.complete) res.shouldKeepAlive = false;
      reply(res, error.httpStatus, {
        error: error.code,
        ...(error.code === 'BODY_TOO_LARGE' ? { maxBodyBytes: limit } : {}),
      });
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
