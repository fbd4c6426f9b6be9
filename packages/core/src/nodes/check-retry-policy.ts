import { InvalidArgumentError } from '@skein/spec';
import { checkOptionalNumber, type NumberRange } from '../util/check-number.js';
import type { RetryPolicy } from '../workflow/types.js';
import { NUMBER_RANGES } from '../workflow/validate-numbers.js';

/** What a retry policy may ask for: the ranges workflow validation checks, enforced at run time. */
const RETRY_POLICY_LIMITS = {
  maxAttempts: NUMBER_RANGES.maxAttempts,
  initialDelayMs: NUMBER_RANGES.delayMs,
  maxDelayMs: NUMBER_RANGES.delayMs,
} as const satisfies Record<keyof RetryPolicy, NumberRange>;

const DEFAULT_RETRY_POLICY: Required<RetryPolicy> = {
  maxAttempts: 3,
  initialDelayMs: 200,
  maxDelayMs: 5_000,
};

/**
 * The policy with defaults filled in, or `InvalidArgumentError` naming the field and its range
 * (`{ maxAttempts: 1e9, initialDelayMs: 0 }` would spin for minutes). `where` says whose policy it
 * is, e.g. `node "ask"`.
 */
export function checkRetryPolicy(policy: unknown, where: string): Required<RetryPolicy> {
  if (policy === undefined) return DEFAULT_RETRY_POLICY;
  if (typeof policy !== 'object' || policy === null || Array.isArray(policy))
    throw new InvalidArgumentError(
      'retry',
      `config.retry of ${where} must be an object { maxAttempts, initialDelayMs, maxDelayMs }`,
    );
  const given = policy as RetryPolicy;
  const field = (name: keyof RetryPolicy) =>
    checkOptionalNumber(
      `config.retry.${name} of ${where}`,
      given[name],
      RETRY_POLICY_LIMITS[name],
      DEFAULT_RETRY_POLICY[name],
    );
  return {
    maxAttempts: field('maxAttempts'),
    initialDelayMs: field('initialDelayMs'),
    maxDelayMs: field('maxDelayMs'),
  };
}
