import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { InvalidArgumentError } from '@skein/spec';
import { createApp } from './create-app.js';
import type { InspectorOptions, RunningInspector } from './inspector-options.js';
import { findPageDir, loadPageFiles } from './page-files.js';

/** Only this address: the inspector shows whole conversations and must not face a network. */
const HOST = '127.0.0.1';

/** Starts the inspector's server on 127.0.0.1 and resolves once it listens. */
export function startInspector(options: InspectorOptions): Promise<RunningInspector> {
  return serveInspector(options, findPageDir());
}

/**
 * `startInspector` with the page taken from `pageDir` (the browser tests build theirs into a
 * folder of their own, so a concurrent package build cannot delete it under them).
 */
export async function serveInspector(
  options: InspectorOptions,
  pageDir: string | undefined,
): Promise<RunningInspector> {
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65_535)
    throw new InvalidArgumentError('port', `port must be an integer from 0 to 65535, got ${port}`);
  const interval = options.pollIntervalMs ?? 500;
  if (!Number.isInteger(interval) || interval < 10)
    throw new InvalidArgumentError(
      'pollIntervalMs',
      `pollIntervalMs must be an integer of at least 10, got ${interval}`,
    );
  const closing = new AbortController();
  const app = createApp({
    store: options.store,
    engine: options.engine,
    allowResume: options.allowResume === true,
    pollIntervalMs: interval,
    page: pageDir === undefined ? undefined : loadPageFiles(pageDir),
    closing: closing.signal,
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: HOST, port }, () => resolve(s));
    s.once('error', reject);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${HOST}:${bound}/`,
    port: bound,
    close: () =>
      new Promise<void>((resolve, reject) => {
        closing.abort();
        server.close((error) => (error ? reject(error) : resolve()));
        // Live streams and keep-alive sockets would hold close() open until they time out.
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
