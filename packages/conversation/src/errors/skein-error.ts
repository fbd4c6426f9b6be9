const MARKER = Symbol.for('skein.error');

export interface SkeinErrorOptions {
  readonly cause?: unknown;
  /** Structured facts about what went wrong (a field path, an index, a thread id, …). */
  readonly details?: Readonly<Record<string, unknown>>;
  /**
   * True when trying the same thing again can succeed (a timeout, an interrupted stream, a 429 or
   * 5xx). Retry layers retry only these; the default is false.
   */
  readonly retryable?: boolean;
}

/**
 * Base class of every error Skein throws. `code` is stable (UPPER_SNAKE) so callers can branch on
 * it; `isInstance` works across two copies of the package in one app, where `instanceof` fails.
 */
export class SkeinError extends Error {
  readonly [MARKER] = true;
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>>;
  readonly retryable: boolean;

  constructor(code: string, message: string, options: SkeinErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details ?? {};
    this.retryable = options.retryable ?? false;
  }

  static isInstance(value: unknown): value is SkeinError {
    return typeof value === 'object' && value !== null && MARKER in value;
  }

  /**
   * Whether a retry layer should try again after `error`. A SkeinError says so itself; any other
   * value with a boolean `retryable` is taken at its word; other errors (a user's own client
   * failing with a plain `Error`) are treated as transient, since nothing says they are not.
   */
  static isRetryable(error: unknown): boolean {
    if (SkeinError.isInstance(error)) return error.retryable;
    if (typeof error === 'object' && error !== null && 'retryable' in error) {
      const flag = (error as { retryable: unknown }).retryable;
      if (typeof flag === 'boolean') return flag;
    }
    return true;
  }

  /** True when `value` is a SkeinError carrying `code`. */
  static hasCode(value: unknown, code: string): value is SkeinError {
    return SkeinError.isInstance(value) && value.code === code;
  }
}
