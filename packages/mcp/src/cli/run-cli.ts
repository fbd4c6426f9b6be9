import { readFileSync } from 'node:fs';
import { SkeinError } from '@skein/spec';
import { loadServerModule } from './load-server-module.js';
import { parseArgs, USAGE } from './parse-args.js';
import { type Served, serveHttp, serveStdio } from './serve-module.js';

export interface CliIo {
  readonly stderr: NodeJS.WritableStream;
  readonly stdout: NodeJS.WritableStream;
  /** Aborted on Ctrl-C or SIGTERM: the server stops. */
  readonly signal: AbortSignal;
}

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

/** `skein-mcp`: resolves to the exit code once the server has stopped. */
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
  await Promise.race([
    served.ended,
    new Promise<void>((resolve) =>
      io.signal.addEventListener('abort', () => resolve(), { once: true }),
    ),
  ]);
  await served.stop();
  return 0;
}
