import type { LLMCallOptions, LLMClient, LLMRequest, LLMResponse, RateBudget } from '@skein/spec';
import { contentText } from '@skein/spec';
import { invalidOption } from '../errors/invalid-option.js';
import { rateLimited } from '../errors/rate-limited.js';
import { rateLimitFacts } from './rate-limit-facts.js';
import { MAX_TIMER_MS, sleep } from './sleep.js';

export interface LimitModelOptions {
  /**
   * 429 answers retried per call before it fails with `ProviderError` `RATE_LIMITED` (default 8,
   * up to 1,000).
   */
  readonly maxRateLimitRetries?: number;
  /** Wait after a 429 that sent no retry-after: doubled each time, from this (default 1,000 ms). */
  readonly backoffMs?: number;
  /** Longest wait after a 429 without retry-after (default 60,000 ms). */
  readonly maxBackoffMs?: number;
  /**
   * Longest wait a provider's retry-after gets (default 600,000 ms, ten minutes; at most
   * 2^31 - 1). A longer one is waited this long, with a `RETRY_AFTER_CAPPED` warning event on
   * the call, and the request is tried again.
   */
  readonly maxRetryAfterMs?: number;
}

const DEFAULT_MAX_RETRY_AFTER_MS = 600_000;

function checkCount(option: keyof LimitModelOptions, value: unknown, max: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > max)
    throw invalidOption(
      `limitOptions.${option}`,
      `must be an integer from 0 to ${max}, got ${String(value)}`,
    );
}

/**
 * Throws `InvalidArgumentError` for an option of `limitModel` that is not a whole count in range:
 * a wait over 2^31 - 1 ms would fire after 1 ms, and a NaN would disable the bound it sets.
 */
export function checkLimitOptions(options: LimitModelOptions | undefined): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null)
    throw invalidOption('limitOptions', 'must be an object');
  checkCount('maxRateLimitRetries', options.maxRateLimitRetries, 1_000);
  checkCount('backoffMs', options.backoffMs, MAX_TIMER_MS);
  checkCount('maxBackoffMs', options.maxBackoffMs, MAX_TIMER_MS);
  checkCount('maxRetryAfterMs', options.maxRetryAfterMs, MAX_TIMER_MS);
}

// A media part before its size is known: what a 1024x1024 image costs at high detail (see
// @skein/conversation's token counting).
const MEDIA_PART_TOKENS = 765;

/**
 * A rough token count of a request, for the token budget before usage is known (4 chars a
 * token, `MEDIA_PART_TOKENS` a media part).
 */
function estimateTokens(request: LLMRequest): number {
  let chars = 0;
  let media = 0;
  for (const message of request.messages) {
    chars += contentText(message.content).length;
    if (typeof message.content !== 'string')
      for (const part of message.content) if (part.type !== 'text') media += MEDIA_PART_TOKENS;
    for (const call of message.toolCalls ?? []) chars += call.name.length + call.arguments.length;
  }
  for (const tool of request.tools) chars += tool.name.length + tool.description.length;
  return Math.ceil(chars / 4) + media + (request.maxTokens ?? 0);
}

/**
 * Tells the budget what happened after the request was answered. A budget kept elsewhere (a
 * database) may fail to hear it; the answer is already paid for, so the call must not fail with
 * it: a lost correction only leaves the token estimate uncorrected, and a lost pause only means the
 * others meet their own 429 and pause then. A budget that is down shows in the next `acquire`.
 */
async function tell(report: () => void | Promise<void>): Promise<void> {
  try {
    await report();
  } catch {
    // See above: the next acquire reports a budget that stays unreachable.
  }
}

/**
 * `llm` with every call waiting for the budget's requests and tokens, and 429 answers retried
 * after the provider's retry-after (at most `maxRetryAfterMs`) or an exponential backoff, pausing
 * everyone who draws on the budget meanwhile. A retry-after is capped rather than obeyed or
 * refused: a provider (or a proxy) asking for days or years would otherwise stall the run, or
 * fail every item at once, when the account's limit may well be back in minutes. `budget` is
 * any `RateBudget`: a `RateLimiter` for this process, or one shared by a fleet (@skein/worker's
 * `PostgresRateBudget`). Other errors pass through untouched for the LLM node's own retry policy.
 */
export function limitModel(
  llm: LLMClient,
  budget: RateBudget,
  options: LimitModelOptions = {},
): LLMClient {
  checkLimitOptions(options);
  const maxRetries = options.maxRateLimitRetries ?? 8;
  const backoff = options.backoffMs ?? 1_000;
  const maxBackoff = options.maxBackoffMs ?? 60_000;
  const maxRetryAfter = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  return {
    name: llm.name,
    async generate(request: LLMRequest, call?: LLMCallOptions): Promise<LLMResponse> {
      const estimate = estimateTokens(request);
      for (let attempt = 1; ; attempt++) {
        await budget.acquire(estimate, call?.signal);
        let response: LLMResponse;
        try {
          response = await llm.generate(request, call);
        } catch (error) {
          const facts = rateLimitFacts(error);
          const asked = facts?.retryAfterMs;
          const wait =
            facts &&
            (asked === undefined
              ? Math.min(maxBackoff, backoff * 2 ** (attempt - 1))
              : Math.min(asked, maxRetryAfter));
          if (asked !== undefined && wait !== undefined && asked > wait)
            call?.onEvent?.({
              type: 'warning',
              code: 'RETRY_AFTER_CAPPED',
              message: `${llm.name} answered 429 asking to retry after ${asked} ms, more than maxRetryAfterMs: waiting ${wait} ms`,
              details: { model: llm.name, retryAfterMs: asked, waitMs: wait },
            });
          // Everyone waits, even when this call gives up: the limit is the account's. Told
          // first, so that the other processes of a fleet stop as soon as they can.
          if (wait !== undefined) await tell(() => budget.pauseFor(wait));
          // A refused request used no tokens.
          await tell(() => budget.settle(estimate, 0));
          if (wait === undefined) throw error;
          if (attempt > maxRetries) throw rateLimited(llm.name, attempt, error);
          await sleep(wait, call?.signal);
          continue;
        }
        await tell(() => budget.settle(estimate, response.usage?.totalTokens ?? estimate));
        return response;
      }
    },
  };
}
