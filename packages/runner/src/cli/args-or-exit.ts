import { describeError } from './describe-error.js';

/** Where a command prints. */
interface UsageIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/**
 * A command's parsed arguments, or the exit code once it has printed its usage: 2 for bad usage
 * (the error first, on stderr), 0 for `--help` (on stdout). Every `skein` command starts so.
 */
export function argsOrExit<Args extends object>(
  argv: readonly string[],
  parse: (argv: readonly string[]) => Args | 'help',
  usage: string,
  io: UsageIo,
): Args | number {
  let args: Args | 'help';
  try {
    args = parse(argv);
  } catch (error) {
    io.stderr.write(`${describeError(error)}\n\n${usage}\n`);
    return 2;
  }
  if (args === 'help') {
    io.stdout.write(`${usage}\n`);
    return 0;
  }
  return args;
}
