import { MAX_TIMER_MS } from '../tools/tool-timeout.js';
import type { NumberRange } from '../util/check-number.js';
import { type Checker, type IssueWhere, isObject } from './workflow-checker.js';

// Every number a workflow may carry, with the range the engine can honour. Each bound once let a
// value mean something else: NaN rounds that never stop, a delay Node fires after 1 ms, a billion
// retries that spin for minutes.

const count = (min: number, max = Number.MAX_SAFE_INTEGER): NumberRange => ({
  min,
  max,
  integer: true,
});

export const NUMBER_RANGES = {
  maxToolRounds: count(1, 10_000),
  toolConcurrency: count(1, 1_000),
  maxTokens: count(1, 2 ** 31 - 1),
  temperature: { min: 0, max: 2 },
  maxAttempts: count(1, 100),
  delayMs: { min: 0, max: MAX_TIMER_MS },
  /** Positions, counts and budgets in context operations and trigger conditions. */
  size: count(0),
  /** How many tool failures fire a `tool-failed` trigger. */
  times: count(1),
} as const satisfies Record<string, NumberRange>;

/** The numeric fields of an LLM node's config, its retry policy included. */
export function checkLLMNumbers(
  config: Record<string, unknown>,
  checker: Checker,
  where: IssueWhere & { path: string },
): void {
  const field = (name: string, range: NumberRange, value = config[name], path = where.path) =>
    checker.number(
      name,
      value,
      range,
      { ...where, path: `${path}.${name}` },
      'INVALID_NODE_CONFIG',
    );
  field('maxToolRounds', NUMBER_RANGES.maxToolRounds);
  field('toolConcurrency', NUMBER_RANGES.toolConcurrency);
  field('temperature', NUMBER_RANGES.temperature);
  field('maxTokens', NUMBER_RANGES.maxTokens);
  const retry = config.retry;
  if (retry === undefined) return;
  const retryPath = `${where.path}.retry`;
  if (!isObject(retry)) {
    checker.add({
      ...where,
      path: retryPath,
      code: 'INVALID_NODE_CONFIG',
      message: 'retry must be an object { maxAttempts?, initialDelayMs?, maxDelayMs? }',
    });
    return;
  }
  field('maxAttempts', NUMBER_RANGES.maxAttempts, retry.maxAttempts, retryPath);
  field('initialDelayMs', NUMBER_RANGES.delayMs, retry.initialDelayMs, retryPath);
  field('maxDelayMs', NUMBER_RANGES.delayMs, retry.maxDelayMs, retryPath);
}
