import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { listenMcpHttp } from '../http/listen.js';
import { createMcpServer } from '../server/create-mcp-server.js';
import type { McpServerOptions } from '../server/mcp-server-options.js';
import type { McpModuleConfig } from './server-module.js';

/** Largest message read from stdin: above the server's argument limit, so an oversized call is answered. */
const STDIO_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export interface Served {
  /** Stops serving: running threads are cancelled, then the module's `close` runs. */
  stop(): Promise<void>;
  /** Resolves when the client has gone (stdin closed, stdout no longer read); never for HTTP. */
  readonly ended: Promise<void>;
}

function serverOptions(
  config: McpModuleConfig,
  fallback: { name: string; version: string },
): McpServerOptions {
  const workflows =
    config.workflows ?? (config.workflowId === undefined ? undefined : [config.workflowId]);
  return {
    name: config.name ?? fallback.name,
    version: config.version ?? fallback.version,
    ...(workflows === undefined ? {} : { workflows }),
    ...(config.instructions === undefined ? {} : { instructions: config.instructions }),
    ...(config.createThread === undefined ? {} : { createThread: config.createThread }),
    ...(config.publish === undefined ? {} : { publish: config.publish }),
    ...(config.sampling === undefined ? {} : { sampling: config.sampling }),
  };
}

/** Stops the server (its running threads are cancelled), then runs the module's `close` even if that failed. */
async function stopThenClose(stopServer: () => Promise<void>, config: McpModuleConfig) {
  try {
    await stopServer();
  } finally {
    await config.close?.();
  }
}

/** Serves a loaded module over stdio: the client is the process that started this one. */
export async function serveStdio(
  config: McpModuleConfig,
  fallback: { name: string; version: string },
): Promise<Served> {
  const server = createMcpServer(config.engine, serverOptions(config, fallback));
  const transport = new StdioServerTransport(process.stdin, process.stdout, {
    maxBufferSize: STDIO_MAX_MESSAGE_BYTES,
  });
  await server.connect(transport);
  const ended = new Promise<void>((resolve) => {
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    // A client that stopped reading (it died, or closed its end) makes writes fail with EPIPE:
    // unheard, that error would end the process before its threads are cancelled. Every one is
    // heard (a later write fails too), and the first stops the server like a closed stdin.
    process.stdout.on('error', () => resolve());
    // The transport closes itself on a message over the limit: nothing more can be read.
    // Chained, never replaced: the handler `connect` set is the SDK's, which aborts the calls in
    // flight, and that is what cancels their threads (without it `server.close()` waited for
    // threads nobody stopped, and the process ran out of work and exited before `close`).
    const sdkOnclose = transport.onclose;
    transport.onclose = () => {
      sdkOnclose?.();
      resolve();
    };
  });
  return { ended, stop: () => stopThenClose(() => server.close(), config) };
}

/** Serves a loaded module over Streamable HTTP; `url` is printed for the user. */
export async function serveHttp(
  config: McpModuleConfig,
  fallback: { name: string; version: string },
  address: { port: number; host: string },
): Promise<Served & { url: string }> {
  const running = await listenMcpHttp(config.engine, {
    ...serverOptions(config, fallback),
    ...address,
  });
  return {
    url: running.url,
    ended: new Promise<void>(() => {}),
    stop: () => stopThenClose(() => running.close(), config),
  };
}
