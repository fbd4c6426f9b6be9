// Flags `skein compare` and `skein report` share: the resampling, and the inspector to link to.
import type { InvalidArgumentError } from '@skein/spec';
import { inspectorUrlProblem } from '../report/inspector-link.js';

/** More would hold 8 MB of resample means per interval, for no interval worth having. */
const MAX_RESAMPLES = 1_000_000;

type Invalid = (flag: string, problem: string) => InvalidArgumentError;

/** `--seed`: digits, a 32-bit unsigned integer (the generator's whole state). */
export function seedFlag(value: string | undefined, invalid: Invalid): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || parsed > 0xffffffff)
    throw invalid('--seed', `must be an integer from 0 to 4294967295, got "${value}"`);
  return parsed;
}

/** `--resamples`: digits, from 1 to `MAX_RESAMPLES`. */
export function resamplesFlag(value: string | undefined, invalid: Invalid): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!/^\s*\d+\s*$/.test(value) || parsed < 1 || parsed > MAX_RESAMPLES)
    throw invalid('--resamples', `must be an integer from 1 to ${MAX_RESAMPLES}, got "${value}"`);
  return parsed;
}

/** `--inspector`: the inspector's http(s) address, for links to threads. */
export function inspectorFlag(value: string | undefined, invalid: Invalid): string | undefined {
  if (value === undefined) return undefined;
  const problem = inspectorUrlProblem(value);
  if (problem !== undefined) throw invalid('--inspector', problem);
  return value;
}
