import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SkeinEngine } from '@skein/core';
import { InvalidArgumentError } from '@skein/spec';
import type { A2AServerOptions } from './a2a-server-options.js';
import { createA2AHandler } from './create-a2a-handler.js';

export interface ListenA2AOptions extends A2AServerOptions {
  /** Port (default 0: a free one). The server binds 127.0.0.1 only. */
  readonly port?: number;
}

export interface RunningA2AServer {
  /** The agent's base URL, e.g. `http://127.0.0.1:4821` (its card is under it). */
  readonly url: string;
  /** The JSON-RPC endpoint, e.g. `http://127.0.0.1:4821/a2a`. */
  readonly endpoint: string;
  readonly port: number;
  /** Stops taking requests and ends open streams (their tasks go on in the engine). */
  close(): Promise<void>;
}

/** Starts a Node HTTP server with `createA2AHandler` on 127.0.0.1; resolves once it listens. */
export async function listenA2A(
  engine: SkeinEngine,
  options: ListenA2AOptions,
): Promise<RunningA2AServer> {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidArgumentError(
      'port',
      `port must be an integer from 0 to 65535, got ${String(port)}`,
    );
  const handler = createA2AHandler(engine, options);
  const server = createServer((request, response) => void handler(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${actual}`;
  return {
    url,
    endpoint: `${url}${options.path ?? '/a2a'}`,
    port: actual,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // The engine outlives the server: the handler stops listening to it.
        handler.requestHandler.close();
        server.close((error) => (error ? reject(error) : resolve()));
        // Open event streams and keep-alive sockets would hold close() until they time out.
        server.closeAllConnections();
      }),
  };
}
