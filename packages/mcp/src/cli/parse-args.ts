import { InvalidArgumentError } from '@skein/spec';

export interface CliArgs {
  readonly module?: string;
  readonly http: boolean;
  readonly port: number;
  readonly host: string;
  readonly help: boolean;
  readonly version: boolean;
}

export const USAGE = `Usage: skein-mcp [options] <workflow module>

Serves the workflows of a module as MCP tools, over stdio (the default) or Streamable HTTP.
The module's default export (or its export named "mcp" or "workflow") is a SkeinEngine,
{ engine, workflows?, name?, version?, close? }, or a function giving either.

Options:
  --http           serve Streamable HTTP instead of stdio
  --port <n>       HTTP port (default 4820; 0 picks a free one)
  --host <addr>    HTTP address (default 127.0.0.1)
  -h, --help       show this help
  -v, --version    show the version`;

function port(value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || value.trim() === '' || !Number.isInteger(n) || n < 0 || n > 65_535)
    throw new InvalidArgumentError(
      '--port',
      `--port takes an integer from 0 to 65535, got ${JSON.stringify(value ?? '')}`,
    );
  return n;
}

/** The command line of `skein-mcp`; InvalidArgumentError naming the option that is wrong. */
export function parseArgs(argv: readonly string[]): CliArgs {
  let module: string | undefined;
  const args = { http: false, port: 4820, host: '127.0.0.1', help: false, version: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--http') args.http = true;
    else if (arg === '--port') args.port = port(argv[++i]);
    else if (arg === '--host') {
      const host = argv[++i];
      if (host === undefined || host === '')
        throw new InvalidArgumentError('--host', '--host takes an address, e.g. 127.0.0.1');
      args.host = host;
    } else if (arg === '-h' || arg === '--help') args.help = true;
    else if (arg === '-v' || arg === '--version') args.version = true;
    else if (arg.startsWith('-')) throw new InvalidArgumentError(arg, `Unknown option ${arg}`);
    else if (module !== undefined)
      throw new InvalidArgumentError(
        arg,
        `One workflow module at a time; got ${module} and ${arg}`,
      );
    else module = arg;
  }
  return module === undefined ? args : { ...args, module };
}
