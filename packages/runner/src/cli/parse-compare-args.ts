import { InvalidArgumentError } from '@skein/spec';
import { DEFAULT_RESAMPLES, DEFAULT_SEED } from '../score/bootstrap.js';
import { parseFlags } from './parse-flags.js';

/** More would hold 8 MB of resample means per interval, for no interval worth having. */
const MAX_RESAMPLES = 1_000_000;

export const COMPARE_USAGE = `Usage: skein compare <run A> <run B> [options]

Compares the scores.jsonl of two run folders, scorer by scorer: the mean score of each run with
its 95% bootstrap interval, the paired difference B − A over the items both runs scored with its
interval ("real" when the interval excludes zero, else "within noise"), and the items whose score
changed. The exit code is 0 whatever the difference: it is a report.

Options:
  --json               print the whole comparison as JSON
  --seed <n>           seed of the resampling, 0 to 4294967295 (default ${DEFAULT_SEED})
  --resamples <n>      bootstrap resamples, 1 to 1000000 (default ${DEFAULT_RESAMPLES})
  -h, --help           this text`;

export interface CompareArgs {
  readonly runA: string;
  readonly runB: string;
  readonly json: boolean;
  readonly seed?: number;
  readonly resamples?: number;
}

function invalidFlag(flag: string, problem: string): InvalidArgumentError {
  return new InvalidArgumentError(flag, `skein compare ${flag}: ${problem}`, { problem });
}

/** `--seed`: digits, a 32-bit unsigned integer (the generator's whole state). */
function seedOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || parsed > 0xffffffff)
    throw invalidFlag('--seed', `must be an integer from 0 to 4294967295, got "${value}"`);
  return parsed;
}

function resamplesOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || parsed < 1 || parsed > MAX_RESAMPLES)
    throw invalidFlag(
      '--resamples',
      `must be an integer from 1 to ${MAX_RESAMPLES}, got "${value}"`,
    );
  return parsed;
}

const FLAGS = {
  json: { type: 'boolean', default: false },
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
  const seed = seedOf(values.seed);
  const resamples = resamplesOf(values.resamples);
  return {
    runA,
    runB,
    json: values.json === true,
    ...(seed === undefined ? {} : { seed }),
    ...(resamples === undefined ? {} : { resamples }),
  };
}
