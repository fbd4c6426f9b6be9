export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
  /** Prompt tokens read from the provider's cache, where it reports them (part of `promptTokens`). */
  readonly cachedPromptTokens?: number;
  /** Completion tokens spent on reasoning, where it reports them (part of `completionTokens`). */
  readonly reasoningTokens?: number;
}
