import { InvalidArgumentError } from '@skein/spec';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../score/bootstrap.js';
import { parseFlags } from './parse-flags.js';
import { inspectorFlag, resamplesFlag, seedFlag } from './report-flags.js';

export const REPORT_USAGE = `Usage: skein report <run folder> [options]

Writes report.html into the run folder: the run's summary, and per scorer of its scores.jsonl the
mean with its 95% bootstrap interval, a histogram of the scores and the worst items. With
--compare, also compares the other run (A, the baseline) with this one (B), as skein compare does,
and writes compare-<run id of A>.html beside it. The pages load nothing and run no script: open
them from the folder, offline. Prints the pages' paths.

Options:
  --compare <run>      the run folder to compare this run with (the baseline, A)
  --inspector <url>    link items to their threads in the inspector at <url>
                       (e.g. http://127.0.0.1:4319/; without it the pages show thread ids)
  --seed <n>           seed of the resampling, 0 to 4294967295 (default ${DEFAULT_SEED})
  --resamples <n>      bootstrap resamples, 1 to 1000000 (default ${DEFAULT_RESAMPLES})
  -h, --help           this text`;

export interface ReportArgs {
  readonly run: string;
  /** The baseline (run A) to compare `run` (run B) with. */
  readonly compare?: string;
  readonly inspectorUrl?: string;
  readonly seed?: number;
  readonly resamples?: number;
}

function invalidFlag(flag: string, problem: string): InvalidArgumentError {
  return new InvalidArgumentError(flag, `skein report ${flag}: ${problem}`, { problem });
}

const FLAGS = {
  compare: { type: 'string' },
  inspector: { type: 'string' },
  seed: { type: 'string' },
  resamples: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** `skein report …` arguments, or `'help'`. Throws `InvalidArgumentError` naming the bad flag. */
export function parseReportArgs(argv: readonly string[]): ReportArgs | 'help' {
  const { values, positionals } = parseFlags(
    { args: [...argv], allowPositionals: true, options: FLAGS },
    invalidFlag,
  );
  if (values.help) return 'help';
  const [command, run, ...rest] = positionals;
  if (command !== 'report')
    throw invalidFlag('command', `expected "report", got "${command ?? ''}"`);
  if (run === undefined) throw invalidFlag('<run folder>', 'is required');
  if (rest.length !== 0) throw invalidFlag('arguments', `unexpected "${rest.join(' ')}"`);
  if (values.compare === '') throw invalidFlag('--compare', 'needs a run folder');
  const seed = seedFlag(values.seed, invalidFlag);
  const resamples = resamplesFlag(values.resamples, invalidFlag);
  const inspectorUrl = inspectorFlag(values.inspector, invalidFlag);
  return {
    run,
    ...(values.compare === undefined ? {} : { compare: values.compare }),
    ...(inspectorUrl === undefined ? {} : { inspectorUrl }),
    ...(seed === undefined ? {} : { seed }),
    ...(resamples === undefined ? {} : { resamples }),
  };
}
