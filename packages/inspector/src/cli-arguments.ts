import { parseArgs } from 'node:util';
import { InvalidArgumentError } from '@skein/spec';

export interface CliArguments {
  readonly db: string;
  readonly port: number;
  readonly pollIntervalMs: number;
}

export const USAGE = `Usage: skein-inspector --db <store> [--port <n>] [--poll <ms>]

  --db <store>   the threads to show: a SQLite file written by @skein/store-sqlite
  --port <n>     port on 127.0.0.1 (default 4319; 0 picks a free one)
  --poll <ms>    how often the store is read for new checkpoints (default 500)
  --help         this text

Read-only: answering a paused thread needs your workflows, so it works only through
startInspector({ store, engine, allowResume: true }) in your own process.`;

function integer(
  name: string,
  text: string | undefined,
  fallback: number,
  min: number,
  max: number,
): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new InvalidArgumentError(
      name,
      `--${name} must be an integer from ${min} to ${max}, got "${text}"`,
    );
  return value;
}

/** Reads the command line; `undefined` when `--help` was asked for. */
export function parseCliArguments(argv: readonly string[]): CliArguments | undefined {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      db: { type: 'string' },
      port: { type: 'string' },
      poll: { type: 'string' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) return undefined;
  if (values.db === undefined || values.db === '')
    throw new InvalidArgumentError('db', '--db is required: the store to read (a SQLite file)');
  return {
    db: values.db,
    port: integer('port', values.port, 4319, 0, 65_535),
    pollIntervalMs: integer('poll', values.poll, 500, 10, 3_600_000),
  };
}
