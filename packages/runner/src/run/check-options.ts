import { statSync } from 'node:fs';
import type { RateBudget } from '@skein/spec';
import { invalidOption } from '../errors/invalid-option.js';
import { checkLimitOptions } from '../limits/limit-model.js';
import { checkRate } from '../limits/rate-limiter.js';
import type { RunDatasetOptions } from './run-options.js';

const RUN_ID = /^[\w.:@-]{1,200}$/;

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * Throws `InvalidArgumentError` for the first bad option, before anything is written; returns the
 * concurrency.
 */
export function checkOptions(options: RunDatasetOptions): number {
  if (typeof options !== 'object' || options === null)
    throw invalidOption('options', 'must be an object');
  if (typeof options.engine !== 'object' && typeof options.engine !== 'function')
    throw invalidOption('engine', 'must be a SkeinEngine or a function returning one');
  if (typeof options.workflowId !== 'string' || options.workflowId === '')
    throw invalidOption('workflowId', 'must be a non-empty string');
  if (typeof options.runId !== 'string' || !RUN_ID.test(options.runId))
    throw invalidOption('runId', 'must be 1 to 200 of letters, digits, _ . : @ or -');
  if (typeof options.output !== 'string' || options.output === '')
    throw invalidOption('output', 'must be the path of the run folder');
  const input = options.input as unknown;
  const iterable =
    typeof input === 'string' ||
    (typeof input === 'object' &&
      input !== null &&
      (Symbol.iterator in input || Symbol.asyncIterator in input));
  if (!iterable)
    throw invalidOption('input', 'must be a list, an (async) iterable or a JSONL file path');
  if (typeof input === 'string' && !isFile(input))
    throw invalidOption('input', `${input} is not a file that can be read`);
  const concurrency = options.concurrency ?? 8;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 10_000)
    throw invalidOption(
      'concurrency',
      `must be an integer from 1 to 10,000, got ${String(concurrency)}`,
    );
  // Checked here, not left to the engine: every item would fail with it, and be skipped as
  // finished by every later run.
  const maxSteps = options.maxSteps;
  if (maxSteps !== undefined && !(Number.isSafeInteger(maxSteps) && maxSteps >= 1))
    throw invalidOption(
      'maxSteps',
      `must be a whole number of steps from 1 to 2^53 - 1, got ${String(maxSteps)}`,
    );
  checkRate('rpm', options.rpm);
  checkRate('tpm', options.tpm);
  checkLimitOptions(options.limitOptions);
  const limiter = options.limiter as Partial<Record<keyof RateBudget, unknown>> | undefined;
  if (
    limiter !== undefined &&
    (typeof limiter !== 'object' ||
      limiter === null ||
      typeof limiter.acquire !== 'function' ||
      typeof limiter.settle !== 'function' ||
      typeof limiter.pauseFor !== 'function')
  )
    throw invalidOption(
      'limiter',
      'must be a RateBudget (acquire, settle and pauseFor), e.g. a RateLimiter',
    );
  if ((options.rpm !== undefined || options.tpm !== undefined) && options.limiter)
    throw invalidOption('limiter', 'give either a limiter or rpm/tpm, not both');
  const limited = options.rpm !== undefined || options.tpm !== undefined || options.limiter;
  if (limited && typeof options.engine !== 'function')
    throw invalidOption(
      'engine',
      'rate limits need the model wrapped: pass engine as (context) => engine and build its model with context.limitModel(llm)',
    );
  return concurrency;
}
