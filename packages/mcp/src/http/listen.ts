import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SkeinEngine } from '@skein/core';
import { InvalidArgumentError } from '@skein/spec';
import { createMcpHttpHandler } from './create-http-handler.js';
import type { McpHttpOptions } from './http-options.js';

export interface ListenMcpHttpOptions extends McpHttpOptions {
  /** Port (default 0: a free one). */
  readonly port?: number;
  /**
   * Address to bind (default 127.0.0.1). The server runs workflows for whoever can reach it and
   * has no authentication: bind elsewhere only behind something that has.
   */
  readonly host?: string;
}

export interface RunningMcpHttpServer {
  /** The endpoint, e.g. `http://127.0.0.1:4820/mcp`. */
  readonly url: string;
  readonly port: number;
  /** Closes every session (their running threads are cancelled), then the server. */
  close(): Promise<void>;
}

/** Starts a Node HTTP server with `createMcpHttpHandler` on 127.0.0.1; resolves once it listens. */
export async function listenMcpHttp(
  engine: SkeinEngine,
  options: ListenMcpHttpOptions,
): Promise<RunningMcpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidArgumentError(
      'port',
      `port must be an integer from 0 to 65535, got ${String(port)}`,
    );
  // The name bound to is answered too (a non-loopback address the caller chose).
  const bound = host.includes(':') ? `[${host}]` : host;
  const extra = [...(options.allowedHosts ?? [])];
  const handler = createMcpHttpHandler(engine, { ...options, allowedHosts: extra });
  const server = createServer((request, response) => void handler(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const actual = (server.address() as AddressInfo).port;
  extra.push(`${bound}:${actual}`);
  return {
    url: `http://${bound}:${actual}${options.path ?? '/mcp'}`,
    port: actual,
    close: async () => {
      await handler.close();
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // Open event streams and keep-alive sockets would hold close() until they time out.
        server.closeAllConnections();
      });
    },
  };
}
