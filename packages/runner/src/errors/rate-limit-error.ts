import { SkeinError } from '@skein/spec';

/**
 * The provider kept answering 429 (rate limited) after every retry the run allows. Retryable:
 * the model call may be tried again later (the LLM node's own retry policy sees it).
 */
export class RateLimitError extends SkeinError<'RATE_LIMITED'> {
  static override readonly errorName = 'RateLimitError';
  readonly model: string;
  readonly attempts: number;

  constructor(model: string, attempts: number, cause: unknown) {
    super(
      'RATE_LIMITED',
      `Model ${model} was rate limited (HTTP 429) on ${attempts} attempts in a row`,
      { cause, retryable: true, details: { model, attempts } },
    );
    this.model = model;
    this.attempts = attempts;
  }
}
