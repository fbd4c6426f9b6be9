import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { allowedHosts, allowedOrigins, fetchToNode, HttpRequestError } from '@skein/http';
import { InvalidArgumentError } from '@skein/spec';
import { type ChatHandlerOptions, createChatHandler } from './chat-handler.js';

/** Only this address: a chat shows whole conversations and runs tools, so it faces no network. */
const HOST = '127.0.0.1';

export interface ChatServerOptions extends Omit<ChatHandlerOptions, 'allowedHosts'> {
  /** 0 (default) picks a free port. */
  readonly port?: number;
  /**
   * Answers the requests outside the chat's path (the page that uses `useChat`, its scripts);
   * undefined means 404. The Host and Origin checks apply to these too.
   */
  readonly serve?: (request: Request) => Response | undefined | Promise<Response | undefined>;
}

export interface RunningChatServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves a chat endpoint (see `createChatHandler`) on 127.0.0.1, for the developer's own machine:
 * requests naming another host (in the Host or an absolute-form target) are refused (421),
 * writes from another origin are refused (403; `allowedOrigins` names more, e.g. a dev server's
 * page), bodies are bounded (413, chunked ones too), malformed paths refused (400). It takes
 * `authorize` as the handler does, for tests and machines shared by several people; a server
 * on the internet mounts `createChatHandler` in its own framework instead.
 */
export async function startChatServer(options: ChatServerOptions): Promise<RunningChatServer> {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidArgumentError('port', `port must be an integer from 0 to 65535, got ${port}`);
  // Filled once the port is known; no request can come before.
  const hosts = new Set<string>();
  const chat = createChatHandler({ ...options, allowedHosts: hosts });
  const base = (options.path ?? '/api/chat').replace(/\/+$/, '');
  // The Node request is guarded before anything else (`fetchToNode`), its target included.
  const route = async (request: Request) => {
    const path = new URL(request.url).pathname;
    if (path === base || path.startsWith(`${base}/`)) return chat.fetch(request);
    const served = await options.serve?.(request);
    if (served === undefined) throw HttpRequestError.routeNotFound(path);
    return served;
  };
  const origins = options.allowedOrigins && allowedOrigins(options.allowedOrigins);
  const server = createServer(
    fetchToNode(route, { hosts, ...(origins ? { allowedOrigins: origins } : {}) }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  for (const host of allowedHosts(bound)) hosts.add(host);
  return {
    url: `http://${HOST}:${bound}`,
    port: bound,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Live streams and keep-alive sockets would hold close() open.
        server.closeAllConnections();
      }),
  };
}
