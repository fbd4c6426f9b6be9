import { InvalidArgumentError } from '@skein/spec';
import { writeComparisonPage } from '../report/write-comparison-report.js';
import { compareRuns } from '../score/compare-runs.js';
import { argsOrExit } from './args-or-exit.js';
import { describeError } from './describe-error.js';
import { formatComparison } from './format-comparison.js';
import { COMPARE_USAGE, parseCompareArgs } from './parse-compare-args.js';
import type { CliIo } from './run-command.js';

/**
 * `skein compare …`: the exit code, 0 once the comparison is printed (a difference, real or not,
 * is what it reports, not a failure), 1 when a run's scores cannot be read (or, with `--html`,
 * the page cannot be written), 2 bad usage. With `--html` the page's path goes to stderr, so
 * stdout stays the comparison (and `--json` stays JSON).
 */
export async function compareCommand(
  argv: readonly string[],
  io: Pick<CliIo, 'stdout' | 'stderr'>,
): Promise<number> {
  const args = argsOrExit(argv, parseCompareArgs, COMPARE_USAGE, io);
  if (typeof args === 'number') return args;
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
    if (args.html) {
      const page = await writeComparisonPage(
        comparison,
        args.inspectorUrl === undefined ? {} : { inspectorUrl: args.inspectorUrl },
      );
      io.stderr.write(`wrote ${page}\n`);
    }
    return 0;
  } catch (error) {
    io.stderr.write(`skein compare failed: ${describeError(error)}\n`);
    return InvalidArgumentError.isInstance(error) ? 2 : 1;
  }
}
