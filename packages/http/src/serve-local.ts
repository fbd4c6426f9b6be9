import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidArgumentError } from '@skein/spec';
import { type Authorize, authorizeRequest, checkAuthorize } from './authorize.js';
import { sendError } from './error-answer.js';
import { HttpRequestError } from './http-request-error.js';
import { readJsonBody } from './json-body.js';
import { allowedHosts, guardRequest } from './request-guard.js';
import { decodePath, requestUrl } from './request-path.js';

export interface LocalRequest {
  readonly method: string;
  readonly url: URL;
  /**
   * The path's segments, decoded: `/threads/t1/messages` is `['threads', 't1', 'messages']` (a
   * malformed escape was refused with 400 `INVALID_PATH` before the handler ran).
   */
  readonly path: readonly string[];
  /** The JSON body (bounded, read on first call); `undefined` when there is none. */
  json(): Promise<unknown>;
  /** The caller `authorize` named; undefined when the server has no `authorize`. */
  readonly principal: string | undefined;
  readonly raw: IncomingMessage;
}

export type LocalHandler = (request: LocalRequest, res: ServerResponse) => unknown;

export interface ServeLocalOptions {
  /** Default 0: any free port. The server listens on 127.0.0.1 only. */
  readonly port?: number;
  /** Largest request body read (default 64 KiB). */
  readonly maxBodyBytes?: number;
  /**
   * Names the caller of every request (see `Authorize`), or refuses it with 401 before the
   * handler runs; the handler reads it as `request.principal`. For tests and a machine shared by
   * several people: the server stays on 127.0.0.1.
   */
  readonly authorize?: Authorize;
}

export interface LocalServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 64 * 1024;

function checkOptions(options: ServeLocalOptions): void {
  const { port = 0, maxBodyBytes = DEFAULT_MAX_BODY } = options;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidArgumentError('port', `port must be an integer from 0 to 65535, got ${port}`);
  if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1)
    throw new InvalidArgumentError('maxBodyBytes', 'maxBodyBytes must be a positive integer');
  checkAuthorize(options.authorize);
}

/**
 * A Node HTTP server on 127.0.0.1 for an app's own routes: every request is checked before the
 * handler sees it (other Host names 421, cross-origin writes 403, malformed paths 400, and with
 * `authorize` a request naming no caller 401), bodies
 * are bounded (413) and read as JSON on demand (415, 400), and an error the handler throws is
 * answered with its status (`statusOf`: 400, 404, 409, 503 or 500) and
 * `{ error: { code, message } }`.
 */
export async function serveLocal(
  handler: LocalHandler,
  options: ServeLocalOptions = {},
): Promise<LocalServer> {
  checkOptions(options);
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  let hosts = new Set<string>();
  const server = createServer((req, res) => {
    let body: Promise<unknown> | undefined;
    const answer = async () => {
      guardRequest(req, hosts);
      const url = requestUrl(req);
      const path = decodePath(url.pathname);
      const { authorize } = options;
      const principal = authorize ? await authorizeRequest(authorize, req) : undefined;
      const request: LocalRequest = {
        method: req.method ?? 'GET',
        url,
        path,
        json: () => {
          body ??= readJsonBody(req, limit);
          return body;
        },
        principal,
        raw: req,
      };
      await handler(request, res);
      if (!res.writableEnded && !res.headersSent)
        sendError(res, HttpRequestError.routeNotFound(url.pathname));
    };
    answer().catch((error: unknown) => sendError(res, error));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(port);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
