import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendError } from './error-answer.js';
import { type GuardOptions, guardRequest } from './request-guard.js';
import { requestUrl } from './request-path.js';
import { dropUnreadBody } from './unread-body.js';

/**
 * A Node request's body as a fetch stream, read only as it is pulled. Cancelling it (a reader
 * that stopped at a limit) stops reading and leaves the request open, unlike `Readable.toWeb`,
 * which destroys it and with it the connection: the answer could not be read.
 */
function bodyOf(req: IncomingMessage): ReadableStream<Uint8Array> {
  const chunks = req.iterator({ destroyOnReturn: false }) as AsyncIterator<Uint8Array>;
  return new ReadableStream<Uint8Array>({
    pull: async (controller) => {
      const { done, value } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: async () => {
      await chunks.return?.();
    },
  });
}

/**
 * A Node request as a fetch `Request`: its URL (`requestUrl`: an absolute-form target as it is),
 * headers, and body streamed on demand.
 */
export function toFetchRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(requestUrl(req), {
    method,
    headers,
    ...(hasBody ? { body: bodyOf(req), duplex: 'half' } : {}),
  } as RequestInit);
}

/**
 * Writes a fetch `Response` to a Node response, streaming its body; stops when the client goes.
 * A request body the handler left unread is dropped and the connection closed after.
 */
export async function sendFetchResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  dropUnreadBody(res.req, res);
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  const stop = () => void reader.cancel().catch(() => undefined);
  res.once('close', stop);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
    res.end();
  } finally {
    res.off('close', stop);
  }
}

export interface FetchToNodeOptions extends GuardOptions {
  /** The `Host` values to answer (421 for any other); `null` leaves the Host to a server in front. */
  readonly hosts: ReadonlySet<string> | null;
}

/**
 * A Node `(req, res)` handler serving a fetch handler: the Node request is guarded first, its
 * absolute-form target included (`guardRequest`), then handed over as a fetch `Request` and the
 * `Response` streamed back. It never rejects: an error is answered with its status, or ends a
 * stream that began.
 */
export function fetchToNode(
  handle: (request: Request) => Response | Promise<Response>,
  options: FetchToNodeOptions,
): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  const { hosts, ...guard } = options;
  return async (req, res) => {
    try {
      guardRequest(req, hosts, guard);
      await sendFetchResponse(res, await handle(toFetchRequest(req)));
    } catch (error) {
      sendError(res, error);
    }
  };
}
