import { join } from 'node:path';
import { SkeinError } from '@skein/core';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import pc from 'picocolors';
import { AppError } from './app-error.js';
import { runDatasetCommand } from './dataset-command.js';
import { listThreads } from './list-threads.js';
import { parsePath } from './path-argument.js';
import { runToolBench } from './run-toolbench.js';
import { runTravel } from './run-travel.js';
import { EXIT_OUTPUT_CLOSED, type Stop, watchForStop } from './stop-signal.js';
import { parseThreadId } from './thread-id.js';
import { enqueueCommand, runWorkerCommand } from './worker-command.js';

interface CliOptions {
  answer?: string;
  resume?: string;
  threadId?: string;
  list?: boolean;
  toolbench?: boolean;
  dataset?: boolean;
  store?: string;
  concurrency?: number;
  out: string;
  db: string;
  traveller: string;
  tier: string;
  currency: string;
  request: string;
  slow?: number;
}

/** Longer pauses would overflow Node's timers (2^31 - 1 ms) long before they made sense. */
const MAX_SLOW_MS = 60_000;

function milliseconds(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < 0 || n > MAX_SLOW_MS)
    throw new InvalidArgumentError(
      `expected a whole number of milliseconds from 0 to ${MAX_SLOW_MS}`,
    );
  return n;
}

const program = new Command()
  .name('skein-example')
  .description(
    'A travel assistant built on Skein: tools, a cleared conversation, routing, a question to you, checkpoints.',
  )
  .option('--answer <text>', 'answer to the confirmation question (otherwise asked in a terminal)')
  .option('--resume <threadId>', 'continue a paused or interrupted thread', parseThreadId)
  .option(
    '--thread-id <id>',
    "id for a new thread: letters, digits, '_' and '-' (names its output folder)",
    parseThreadId,
  )
  .option('--list', 'list the stored threads')
  .option('--toolbench', 'run a StableToolBench query through @skein/toolbench instead')
  .option(
    '--dataset',
    'run a small StableToolBench split with @skein/runner (resumable), exporting converted answers and fine-tuning lines',
  )
  .option(
    '--store <url>',
    'PostgreSQL URL: checkpoints there instead of --db (and the queue of `worker` and `enqueue`)',
  )
  .option('--concurrency <n>', 'threads a `worker` runs at once', (v) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1 || n > 256)
      throw new InvalidArgumentError('expected a whole number from 1 to 256');
    return n;
  })
  .option('--out <dir>', 'output folder for transcripts and diagrams', parsePath, 'out')
  .option('--db <file>', 'checkpoint database', parsePath, join('.skein', 'threads.db'))
  .option('--traveller <name>', 'who travels', 'Ada')
  .addOption(
    new Option('--tier <tier>', 'loyalty tier').choices(['standard', 'gold']).default('gold'),
  )
  .addOption(
    new Option('--currency <code>', 'currency of the quote')
      .choices(['EUR', 'USD', 'GBP', 'JPY'])
      .default('USD'),
  )
  .option(
    '--request <text>',
    'what to ask the assistant',
    'Plan a 4-day trip to Lisbon in spring with a flexible fare.',
  )
  .addOption(
    new Option('--slow <ms>', 'pause between streamed chunks of the embedded model')
      .argParser(milliseconds)
      .hideHelp(),
  )
  .argument('[command]', '`worker` (run queued threads) or `enqueue` (queue one), with --store')
  .showHelpAfterError(false)
  .exitOverride()
  .configureOutput({ writeErr: (text) => process.stderr.write(text) });

async function main(argv: string[], stop: Stop): Promise<number> {
  try {
    program.parse(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version are not errors; everything else already printed one line.
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' ? 0 : 2;
    }
    throw error;
  }
  const options = program.opts<CliOptions>();
  const command = program.args[0];
  if (program.args.length > 1) throw new AppError(`unexpected argument '${program.args[1]}'`, 2);
  if (command !== undefined) {
    if (command !== 'worker' && command !== 'enqueue')
      throw new AppError(`unexpected argument '${command}' (commands: worker, enqueue)`, 2);
    if (options.store === undefined)
      throw new AppError(`${command} needs --store <postgres url>`, 2);
    if (command === 'worker')
      return runWorkerCommand({
        store: options.store,
        signal: stop.signal,
        ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
        ...(options.slow !== undefined ? { slowMs: options.slow } : {}),
      });
    return enqueueCommand({
      store: options.store,
      signal: stop.signal,
      request: options.request,
      traveller: options.traveller,
      tier: options.tier,
      currency: options.currency,
      ...(options.threadId !== undefined ? { threadId: options.threadId } : {}),
      ...(options.resume !== undefined ? { resume: options.resume } : {}),
      ...(options.answer !== undefined ? { answer: options.answer } : {}),
    });
  }
  const storeChoice = {
    db: options.db,
    ...(options.store !== undefined ? { url: options.store } : {}),
  };
  if (options.list) return listThreads(storeChoice);
  if (options.toolbench) return runToolBench(options.out, stop.signal);
  if (options.dataset) return runDatasetCommand(options.out, stop.signal);
  return runTravel({
    signal: stop.signal,
    out: options.out,
    db: options.db,
    ...(options.store !== undefined ? { store: options.store } : {}),
    traveller: options.traveller,
    tier: options.tier,
    currency: options.currency,
    request: options.request,
    ...(options.answer !== undefined ? { answer: options.answer } : {}),
    ...(options.resume !== undefined ? { resume: options.resume } : {}),
    ...(options.threadId !== undefined ? { threadId: options.threadId } : {}),
    ...(options.slow !== undefined ? { slowMs: options.slow } : {}),
  });
}

const stop = watchForStop();
main(process.argv, stop).then(
  (code) => {
    stop.dispose();
    // Like a program killed by SIGPIPE: a pipeline run with `set -o pipefail` sees the cut.
    process.exitCode = stop.reason() === 'output-closed' ? EXIT_OUTPUT_CLOSED : code;
  },
  (error: unknown) => {
    stop.dispose();
    // One line, never a stack trace: the problem, and its code when Skein knows it.
    const code = error instanceof AppError ? error.exitCode : 1;
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    const tag = SkeinError.isInstance(error) ? ` [${(error as SkeinError).code}]` : '';
    process.stderr.write(`${pc.red('error:')} ${message}${tag}\n`);
    process.exitCode = code;
  },
);
