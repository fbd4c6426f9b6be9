import { InvalidArgumentError } from '@skein/spec';
import type { ReportOptions } from '../report/report-options.js';
import { writeComparisonReport } from '../report/write-comparison-report.js';
import { writeRunReport } from '../report/write-run-report.js';
import { argsOrExit } from './args-or-exit.js';
import { describeError } from './describe-error.js';
import { parseReportArgs, REPORT_USAGE } from './parse-report-args.js';

/** Where the command writes: anything with `write(text)`. */
export interface ReportIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/**
 * `skein report …`: writes the run's page (and with `--compare` the comparison's), printing each
 * path. The exit code: 0 once the pages are written, 1 when a run cannot be read or a page
 * written, 2 bad usage.
 */
export async function reportCommand(argv: readonly string[], io: ReportIo): Promise<number> {
  const args = argsOrExit(argv, parseReportArgs, REPORT_USAGE, io);
  if (typeof args === 'number') return args;
  const { run, compare, ...rest } = args;
  const options: ReportOptions = rest;
  try {
    io.stdout.write(`${await writeRunReport(run, options)}\n`);
    if (compare !== undefined)
      io.stdout.write(`${await writeComparisonReport(compare, run, options)}\n`);
    return 0;
  } catch (error) {
    io.stderr.write(`skein report failed: ${describeError(error)}\n`);
    return InvalidArgumentError.isInstance(error) ? 2 : 1;
  }
}
