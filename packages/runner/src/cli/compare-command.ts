import { InvalidArgumentError, SkeinError } from '@skein/spec';
import { compareRuns } from '../score/compare-runs.js';
import { formatComparison } from './format-comparison.js';
import { COMPARE_USAGE, type CompareArgs, parseCompareArgs } from './parse-compare-args.js';
import type { CliIo } from './run-command.js';

/** An error as one line: its code first, when it has one. */
function describe(error: unknown): string {
  const code = SkeinError.isInstance(error) ? `${error.code}: ` : '';
  return `${code}${error instanceof Error ? error.message : String(error)}`;
}

/**
 * `skein compare …`: the exit code, 0 once the comparison is printed (a difference, real or not,
 * is what it reports, not a failure), 1 when a run's scores cannot be read, 2 bad usage.
 */
export async function compareCommand(
  argv: readonly string[],
  io: Pick<CliIo, 'stdout' | 'stderr'>,
): Promise<number> {
  let args: CompareArgs | 'help';
  try {
    args = parseCompareArgs(argv);
  } catch (error) {
    io.stderr.write(`${describe(error)}\n\n${COMPARE_USAGE}\n`);
    return 2;
  }
  if (args === 'help') {
    io.stdout.write(`${COMPARE_USAGE}\n`);
    return 0;
  }
  try {
    const comparison = await compareRuns(args.runA, args.runB, {
      ...(args.seed === undefined ? {} : { seed: args.seed }),
      ...(args.resamples === undefined ? {} : { resamples: args.resamples }),
    });
    // A torn line is expected after a crash, but the operator should know the run lost a score.
    for (const run of [comparison.runA, comparison.runB])
      if (run.tornLine !== undefined)
        io.stderr.write(
          `note: ${run.file}: line ${run.tornLine} has no newline (a write torn by a crash) and is ignored\n`,
        );
    io.stdout.write(
      args.json ? `${JSON.stringify(comparison, null, 2)}\n` : `${formatComparison(comparison)}\n`,
    );
    return 0;
  } catch (error) {
    io.stderr.write(`skein compare failed: ${describe(error)}\n`);
    return InvalidArgumentError.isInstance(error) ? 2 : 1;
  }
}
