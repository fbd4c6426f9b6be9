import { readFileSync } from 'node:fs';
import { SkeinError } from '@skein/spec';
import { loadServerModule } from './load-server-module.js';
import { parseArgs, USAGE } from './parse-args.js';
import { type Served, serveHttp, serveStdio } from './serve-module.js';
import { stopWithin } from './stop-within.js';

export interface CliIo {
  readonly stderr: NodeJS.WritableStream;
  readonly stdout: NodeJS.WritableStream;
  /** Aborted on Ctrl-C or SIGTERM: the server stops. */
  readonly signal: AbortSignal;
}

/** How long stopping may take (threads cancelled, then the module's `close`) before the CLI exits anyway. */
export const SHUTDOWN_GRACE_MS = 10_000;

/** This package's version, for `--version` and the server's default version. */
function ownVersion(): string {
  // dist/cli.js and src/cli/run-cli.ts both sit below the package folder.
  for (const up of ['../package.json', '../../package.json']) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (manifest.name === '@skein/mcp' && manifest.version) return manifest.version;
    } catch {
      // Not there from this file: try the next.
    }
  }
  return '0.0.0';
}

function describe(error: unknown): string {
  if (SkeinError.isInstance(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * `skein-mcp`: resolves to the exit code once the server has stopped: 0 when the client went
 * (stdin closed) or `io.signal` was aborted and shutting down went well; 1 when the module could
 * not be served or shutting down failed or overran its grace period; 2 for a wrong command line.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let args: ReturnType<typeof parseArgs>;
  try {
    args = parseArgs(argv);
  } catch (error) {
    io.stderr.write(`skein-mcp: ${describe(error)}\n\n${USAGE}\n`);
    return 2;
  }
  const version = ownVersion();
  if (args.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.version) {
    io.stdout.write(`${version}\n`);
    return 0;
  }
  if (args.module === undefined) {
    io.stderr.write(`skein-mcp: no workflow module given\n\n${USAGE}\n`);
    return 2;
  }
  let served: Served;
  try {
    const config = await loadServerModule(args.module);
    const fallback = { name: 'skein', version };
    if (args.http) {
      const http = await serveHttp(config, fallback, { port: args.port, host: args.host });
      io.stderr.write(`skein-mcp: serving ${args.module} at ${http.url}\n`);
      served = http;
    } else served = await serveStdio(config, fallback);
  } catch (error) {
    io.stderr.write(`skein-mcp: ${describe(error)}\n`);
    return 1;
  }
  await Promise.race([served.ended, whenAborted(io.signal)]);
  return await shutDown(served, io);
}

function whenAborted(signal: AbortSignal): Promise<void> {
  // A signal that came while the module loaded has fired its event already.
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) =>
    signal.addEventListener('abort', () => resolve(), { once: true }),
  );
}

/**
 * Stops the server (running threads are cancelled) and runs the module's `close`: 0 once both
 * are done; 1 if either failed or they did not finish within the grace period (a tool that
 * ignores its abort signal, a `close` that hangs), since the process must end anyway.
 */
async function shutDown(served: Served, io: CliIo): Promise<number> {
  try {
    if ((await stopWithin(served.stop(), SHUTDOWN_GRACE_MS)) === 'stopped') return 0;
    io.stderr.write(
      `skein-mcp: running threads and the module's close did not finish within ${SHUTDOWN_GRACE_MS} ms; exiting\n`,
    );
  } catch (error) {
    io.stderr.write(`skein-mcp: stopping failed: ${describe(error)}\n`);
  }
  return 1;
}
