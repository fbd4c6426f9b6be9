import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { allowedHosts } from '@skein/http';
import { InvalidArgumentError } from '@skein/spec';
import { createApp } from './create-app.js';
import type { InspectorOptions, RunningInspector } from './inspector-options.js';
import { findPageDir, loadPageFiles } from './page-files.js';

/** Only this address: the inspector shows whole conversations and must not face a network. */
const HOST = '127.0.0.1';

/** A resume body is `{ input }`: an answer or a few approvals. */
const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
const MAX_MAX_BODY_BYTES = 64 * 1024 * 1024;

function integerOption(
  name: string,
  value: number | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < min || chosen > max)
    throw new InvalidArgumentError(
      name,
      `${name} must be an integer from ${min} to ${max}, got ${chosen}`,
    );
  return chosen;
}

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
  const port = integerOption('port', options.port, 0, 0, 65_535);
  const interval = integerOption(
    'pollIntervalMs',
    options.pollIntervalMs,
    500,
    10,
    Number.MAX_SAFE_INTEGER,
  );
  const maxBodyBytes = integerOption(
    'maxBodyBytes',
    options.maxBodyBytes,
    DEFAULT_MAX_BODY_BYTES,
    1,
    MAX_MAX_BODY_BYTES,
  );
  const closing = new AbortController();
  // Filled once the port is known (port 0 picks one); no request can come before.
  const hosts = new Set<string>();
  const app = createApp({
    store: options.store,
    engine: options.engine,
    allowResume: options.allowResume === true,
    allowFork: options.allowFork === true,
    pollIntervalMs: interval,
    maxBodyBytes,
    page: pageDir === undefined ? undefined : loadPageFiles(pageDir),
    hosts,
    closing: closing.signal,
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: HOST, port }, () => resolve(s));
    s.once('error', reject);
  });
  const bound = (server.address() as AddressInfo).port;
  for (const host of allowedHosts(bound, { boundHost: HOST })) hosts.add(host);
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
