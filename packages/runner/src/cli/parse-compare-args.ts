import { InvalidArgumentError } from '@skein/spec';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../score/bootstrap.js';
import { parseFlags } from './parse-flags.js';
import { inspectorFlag, resamplesFlag, seedFlag } from './report-flags.js';

export const COMPARE_USAGE = `Usage: skein compare <run A> <run B> [options]

Compares the scores.jsonl of two run folders, scorer by scorer: the mean score of each run with
its 95% bootstrap interval, the paired difference B − A over the items both runs scored with its
interval ("real" when the interval excludes zero, else "within noise"), and the items whose score
changed. The exit code is 0 whatever the difference: it is a report.

Options:
  --json               print the whole comparison as JSON
  --html               also write it as a page into run B's folder, compare-<run id of A>.html
                       (charts, changed items; opens offline)
  --inspector <url>    with --html: link items to their threads in the inspector at <url>
  --seed <n>           seed of the resampling, 0 to 4294967295 (default ${DEFAULT_SEED})
  --resamples <n>      bootstrap resamples, 1 to 1000000 (default ${DEFAULT_RESAMPLES})
  -h, --help           this text`;

export interface CompareArgs {
  readonly runA: string;
  readonly runB: string;
  readonly json: boolean;
  readonly html: boolean;
  readonly inspectorUrl?: string;
  readonly seed?: number;
  readonly resamples?: number;
}

function invalidFlag(flag: string, problem: string): InvalidArgumentError {
  return new InvalidArgumentError(flag, `skein compare ${flag}: ${problem}`, { problem });
}

const FLAGS = {
  json: { type: 'boolean', default: false },
  html: { type: 'boolean', default: false },
  inspector: { type: 'string' },
  seed: { type: 'string' },
  resamples: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** `skein compare …` arguments, or `'help'`. Throws `InvalidArgumentError` naming the bad flag. */
export function parseCompareArgs(argv: readonly string[]): CompareArgs | 'help' {
  const { values, positionals } = parseFlags(
    { args: [...argv], allowPositionals: true, options: FLAGS },
    invalidFlag,
  );
  if (values.help) return 'help';
  const [command, runA, runB, ...rest] = positionals;
  if (command !== 'compare')
    throw invalidFlag('command', `expected "compare", got "${command ?? ''}"`);
  if (runA === undefined) throw invalidFlag('<run A>', 'is required');
  if (runB === undefined) throw invalidFlag('<run B>', 'is required');
  if (rest.length !== 0) throw invalidFlag('arguments', `unexpected "${rest.join(' ')}"`);
  const seed = seedFlag(values.seed, invalidFlag);
  const resamples = resamplesFlag(values.resamples, invalidFlag);
  const inspectorUrl = inspectorFlag(values.inspector, invalidFlag);
  if (inspectorUrl !== undefined && values.html !== true)
    throw invalidFlag('--inspector', 'links threads in the page: give --html too');
  return {
    runA,
    runB,
    json: values.json === true,
    html: values.html === true,
    ...(inspectorUrl === undefined ? {} : { inspectorUrl }),
    ...(seed === undefined ? {} : { seed }),
    ...(resamples === undefined ? {} : { resamples }),
  };
}
