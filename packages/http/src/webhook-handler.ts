import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SkeinEngine } from '@skein/core';
import { InvalidArgumentError } from '@skein/spec';
import { errorAnswer } from './error-answer.js';
import { HttpRequestError } from './http-request-error.js';
import { readJsonBody } from './json-body.js';
import { decodePathSegment, requestUrl } from './request-path.js';
import { dropUnreadBody } from './unread-body.js';

export interface WebhookHandlerOptions {
  /** The largest body taken, in bytes: 1 to 2^31 - 1 (default 1 MiB). Larger calls get 413. */
  readonly maxBodyBytes?: number;
}

const DEFAULT_MAX_BODY = 1_048_576;

function reply(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  // A client gone, or an answer begun: nothing more can be said.
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  dropUnreadBody(res.req, res);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

/** The token: the last segment of the path the app mounted the handler on (`/hooks/<token>`). */
function tokenOf(req: IncomingMessage): string {
  const { pathname } = requestUrl(req);
  return decodePathSegment(pathname.slice(pathname.lastIndexOf('/') + 1), pathname);
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

/** Delivers the call's payload to the thread whose webhook token it names, and answers. */
async function deliver(
  engine: SkeinEngine,
  limit: number,
  req: IncomingMessage,
  res: ServerResponse,
) {
  if (req.method !== 'POST') throw HttpRequestError.methodNotAllowed(req.method ?? '', ['POST']);
  const token = tokenOf(req);
  const payload = (await readJsonBody(req, limit)) ?? null;
  const outcome = await engine.deliverWebhook(token, payload);
  if (outcome.status === 'delivered')
    reply(res, 202, { delivered: true, threadId: outcome.threadId });
  else if (outcome.status === 'taken')
    reply(res, 409, { error: 'ALREADY_DELIVERED', threadId: outcome.threadId });
  else if (outcome.status === 'no-match')
    reply(res, 422, { error: 'EVENT_NOT_MATCHED', threadId: outcome.threadId });
  else reply(res, 404, { error: 'WEBHOOK_NOT_FOUND' });
}

/**
 * A Node `(req, res)` handler that turns `POST <mount>/<token>` with a JSON body (empty: null)
 * into the event a thread's WAIT_FOR_EVENT waits for, once (`engine.createWebhook` makes the
 * token). Unlike `serveLocal`, it is made for the app's PUBLIC server (payment or CI callbacks):
 * it trusts nothing but the token, which the engine checks in constant time, bounds the body
 * before reading it, and its promise never rejects, whatever a client sends or however it goes
 * away. Answers JSON: 202 delivered, 404 unknown or used token, 409 already delivered, 422 the
 * wait's `match` does not hold; a client's mistake is 4xx (400 a body that is not JSON or a
 * payload the thread cannot take, or a malformed path; 405 not POST, 413 too large, 415 not
 * `application/json`), so senders do not retry it; 503 when the store fails for now, else 500.
 */
export function webhookHandler(
  engine: SkeinEngine,
  options: WebhookHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const limit = checkLimit(options.maxBodyBytes);
  return async (req, res) => {
    try {
      await deliver(engine, limit, req, res);
    } catch (error) {
      const { status, headers, body } = errorAnswer(error);
      if (headers.allow !== undefined && !res.headersSent) res.setHeader('allow', headers.allow);
      reply(res, status, {
        error: body.error.code,
        ...(body.error.code === 'BODY_TOO_LARGE' ? { maxBodyBytes: limit } : {}),
      });
    }
  };
}
