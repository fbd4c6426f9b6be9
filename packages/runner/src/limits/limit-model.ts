import type { LLMCallOptions, LLMClient, LLMRequest, LLMResponse } from '@skein/spec';
import { RateLimitError } from '../errors/rate-limit-error.js';
import { rateLimitFacts } from './rate-limit-facts.js';
import type { RateLimiter } from './rate-limiter.js';
import { sleep } from './sleep.js';

export interface LimitModelOptions {
  /** 429 answers retried per call before it fails with `RateLimitError` (default 8). */
  readonly maxRateLimitRetries?: number;
  /** Wait after a 429 that sent no retry-after: doubled each time, from this (default 1,000 ms). */
  readonly backoffMs?: number;
  /** Longest wait after a 429 without retry-after (default 60,000 ms). */
  readonly maxBackoffMs?: number;
}

/** A rough token count of a request, for the token budget before usage is known (4 chars a token). */
function estimateTokens(request: LLMRequest): number {
  let chars = 0;
  for (const message of request.messages) {
    chars += message.content.length;
    for (const call of message.toolCalls ?? []) chars += call.name.length + call.arguments.length;
  }
  for (const tool of request.tools) chars += tool.name.length + tool.description.length;
  return Math.ceil(chars / 4) + (request.maxTokens ?? 0);
}

/**
 * `llm` with every call waiting for the limiter's request and token budgets, and 429 answers
 * retried after the provider's retry-after (or an exponential backoff), pausing the whole run
 * meanwhile. Other errors pass through untouched for the LLM node's own retry policy.
 */
export function limitModel(
  llm: LLMClient,
  limiter: RateLimiter,
  options: LimitModelOptions = {},
): LLMClient {
  const maxRetries = options.maxRateLimitRetries ?? 8;
  const backoff = options.backoffMs ?? 1_000;
  const maxBackoff = options.maxBackoffMs ?? 60_000;
  return {
    name: llm.name,
    async generate(request: LLMRequest, call?: LLMCallOptions): Promise<LLMResponse> {
      const estimate = estimateTokens(request);
      for (let attempt = 1; ; attempt++) {
        await limiter.acquire(estimate, call?.signal);
        let response: LLMResponse;
        try {
          response = await llm.generate(request, call);
        } catch (error) {
          const facts = rateLimitFacts(error);
          // A refused request used no tokens.
          limiter.settle(estimate, 0);
          if (!facts) throw error;
          const wait = facts.retryAfterMs ?? Math.min(maxBackoff, backoff * 2 ** (attempt - 1));
          // Everyone waits, even when this call gives up: the limit is the account's.
          limiter.pauseFor(wait);
          if (attempt > maxRetries) throw new RateLimitError(llm.name, attempt, error);
          await sleep(wait, call?.signal);
          continue;
        }
        limiter.settle(estimate, response.usage?.totalTokens ?? estimate);
        return response;
      }
    },
  };
}
