import { invalidOption } from '../errors/invalid-option.js';
import { count, timeLimit } from './parse-args.js';
import { parseFlags } from './parse-flags.js';

export const SCORE_USAGE = `Usage: skein score <run folder> --module <workflow module> --input <data.jsonl> [options]

Scores the finished items of a run folder that lack a score of one of the workflow module's
scorers, reading each item's thread from the module's engine (its store) and its dataset entry
from the input: after a run without --score, to add a scorer, or to go on after a crash. Each
item and scorer is written to scores.jsonl once; a scorer that fails or times out gives no
score (score-errors.jsonl says why) and is tried again next time. Do not run it on a folder a
run is still writing to.

Options:
  --module <file>       workflow module giving the engine and its scorers (required)
  --input <file>        the run's JSONL input (required): what the scorers compare against
  --id-field <name>     item field holding its id, as the run had it (default: the line number)
  --run-id <id>         run id (default: the one recorded in the run folder)
  --concurrency <n>     items scored at once (default 8)
  --score-timeout <ms>  time limit of the scorers of one item (default 60000)
  -h, --help            this text`;

export interface ScoreArgs {
  readonly folder: string;
  readonly module: string;
  readonly input: string;
  readonly idField?: string;
  readonly runId?: string;
  readonly concurrency?: number;
  readonly scoreTimeoutMs?: number;
}

const FLAGS = {
  module: { type: 'string' },
  input: { type: 'string' },
  'id-field': { type: 'string' },
  'run-id': { type: 'string' },
  concurrency: { type: 'string' },
  'score-timeout': { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const;

/** `skein score …` arguments, or `'help'`. Throws `InvalidArgumentError` naming the bad flag. */
export function parseScoreArgs(argv: readonly string[]): ScoreArgs | 'help' {
  const { values, positionals } = parseFlags(
    { args: [...argv], allowPositionals: true, options: FLAGS },
    invalidOption,
  );
  if (values.help) return 'help';
  const [command, folder, ...rest] = positionals;
  if (command !== 'score')
    throw invalidOption('command', `expected "score", got "${command ?? ''}"`);
  if (folder === undefined) throw invalidOption('<run folder>', 'is required');
  if (rest.length !== 0) throw invalidOption('arguments', `unexpected "${rest.join(' ')}"`);
  if (values.module === undefined) throw invalidOption('--module', 'is required');
  if (values.input === undefined) throw invalidOption('--input', 'is required');
  const concurrency = count('--concurrency', values.concurrency);
  const scoreTimeoutMs = timeLimit('--score-timeout', values['score-timeout']);
  return {
    folder,
    module: values.module,
    input: values.input,
    ...(values['id-field'] === undefined ? {} : { idField: values['id-field'] }),
    ...(values['run-id'] === undefined ? {} : { runId: values['run-id'] }),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(scoreTimeoutMs === undefined ? {} : { scoreTimeoutMs }),
  };
}
