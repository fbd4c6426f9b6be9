import { invalidOption } from '../errors/invalid-option.js';
import { checkRate } from '../limits/rate-limiter.js';
import { parseFlags } from './parse-flags.js';

export const USAGE = `Usage: skein run <workflow module> --input <data.jsonl> --out <run folder> [options]
       skein compare <run A> <run B> [--json] [--html] [--seed <n>] [--resamples <n>]   (see skein compare --help)
       skein report <run folder> [--compare <run>] [--inspector <url>]   (see skein report --help)
       skein score <run folder> --module <workflow module> --input <data.jsonl> [options]   (see skein score --help)

Runs a workflow over every line of a JSONL file, each line in its own thread, writing
results.jsonl, exports and summary.json into the run folder. Run it again with --resume to go
on after a crash or Ctrl-C: finished items are skipped, unfinished threads resume.

Options:
  --input <file>        JSONL input, one item per line (required)
  --out <folder>        run folder (required): new, empty, or this run's own
  --concurrency <n>     items at once (default 8)
  --rpm <n>             model requests per minute across the run (at least 2.8e-5)
  --tpm <n>             model tokens per minute across the run (at least 2.8e-5)
  --resume              go on with the run already in --out
  --run-id <id>         run id (default: the one recorded in --out, else its folder name)
  --id-field <name>     item field holding its id (default: the line number)
  --max-steps <n>       nodes per item before it fails (default 1000)
  --fine-tuning         also export OpenAI fine-tuning lines (finetune.jsonl)
  --toolbench <split>   also export StableToolBench converted answers for <split>
  --score               score items as they finish with the module's scorers (scores.jsonl)
  --score-timeout <ms>  time limit of the scorers of one item (default 60000)
  -h, --help            this text

The workflow module's default export (or its export named "workflow") is
{ engine, workflowId, ... } or a function (context) => that; a .ts module needs
node --import tsx (or run the CLI through tsx).`;

export interface CliArgs {
  readonly module: string;
  readonly input: string;
  readonly out: string;
  readonly concurrency?: number;
  readonly rpm?: number;
  readonly tpm?: number;
  readonly resume: boolean;
  readonly runId?: string;
  readonly idField?: string;
  readonly maxSteps?: number;
  readonly fineTuning: boolean;
  readonly toolBench?: string;
  readonly score: boolean;
  readonly scoreTimeoutMs?: number;
}

/** A count (`--concurrency`, `--max-steps`): written as digits, from 1 to 2^53 - 1. */
export function count(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || !Number.isSafeInteger(parsed) || parsed < 1)
    throw invalidOption(flag, `must be a positive integer, got "${value}"`);
  return parsed;
}

/** A time limit in milliseconds (`--score-timeout`): digits, from 1 to what a timer can wait. */
export function timeLimit(flag: string, value: string | undefined): number | undefined {
  const parsed = count(flag, value);
  if (parsed !== undefined && parsed > 2_147_483_647)
    throw invalidOption(flag, `must be at most 2147483647 ms, got "${value}"`);
  return parsed;
}

/** A budget per minute (`--rpm`, `--tpm`): a positive number whose wait for one unit fits a timer. */
function perMinute(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed <= 0)
    throw invalidOption(flag, `must be a positive number, got "${value}"`);
  checkRate(flag, parsed);
  return parsed;
}

const FLAGS = {
  input: { type: 'string' },
  out: { type: 'string' },
  concurrency: { type: 'string' },
  rpm: { type: 'string' },
  tpm: { type: 'string' },
  resume: { type: 'boolean', default: false },
  'run-id': { type: 'string' },
  'id-field': { type: 'string' },
  'max-steps': { type: 'string' },
  'fine-tuning': { type: 'boolean', default: false },
  toolbench: { type: 'string' },
  score: { type: 'boolean', default: false },
  'score-timeout': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** `skein run …` arguments, or `'help'`. Throws `InvalidArgumentError` naming the bad flag. */
export function parseCliArgs(argv: readonly string[]): CliArgs | 'help' {
  const { values, positionals } = parseFlags(
    { args: [...argv], allowPositionals: true, options: FLAGS },
    invalidOption,
  );
  if (values.help) return 'help';
  const [command, module, ...rest] = positionals;
  if (command !== 'run')
    throw invalidOption(
      'command',
      `unknown command "${command ?? ''}"; try "skein run", "skein compare", "skein report" or "skein score"`,
    );
  if (module === undefined) throw invalidOption('<workflow module>', 'is required');
  if (rest.length !== 0) throw invalidOption('arguments', `unexpected "${rest.join(' ')}"`);
  if (values.input === undefined) throw invalidOption('--input', 'is required');
  if (values.out === undefined) throw invalidOption('--out', 'is required');
  const concurrency = count('--concurrency', values.concurrency);
  const rpm = perMinute('--rpm', values.rpm);
  const tpm = perMinute('--tpm', values.tpm);
  const maxSteps = count('--max-steps', values['max-steps']);
  const scoreTimeoutMs = timeLimit('--score-timeout', values['score-timeout']);
  if (scoreTimeoutMs !== undefined && values.score !== true)
    throw invalidOption('--score-timeout', 'limits scorers: give it with --score');
  return {
    module,
    input: values.input,
    out: values.out,
    resume: values.resume === true,
    fineTuning: values['fine-tuning'] === true,
    score: values.score === true,
    ...(scoreTimeoutMs === undefined ? {} : { scoreTimeoutMs }),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(rpm === undefined ? {} : { rpm }),
    ...(tpm === undefined ? {} : { tpm }),
    ...(maxSteps === undefined ? {} : { maxSteps }),
    ...(values['run-id'] === undefined ? {} : { runId: values['run-id'] }),
    ...(values['id-field'] === undefined ? {} : { idField: values['id-field'] }),
    ...(values.toolbench === undefined ? {} : { toolBench: values.toolbench }),
  };
}
