const MARKER = Symbol.for('skein.error');

export interface SkeinErrorOptions {
  readonly cause?: unknown;
  /** Structured facts about what went wrong (a field path, an index, a thread id, …). */
  readonly details?: Readonly<Record<string, unknown>>;
}

/**
 * Base class of every error Skein throws. `code` is stable (UPPER_SNAKE) so callers can branch on
 * it; `isInstance` works across two copies of the package in one app, where `instanceof` fails.
 */
export class SkeinError extends Error {
  readonly [MARKER] = true;
  readonly code: string;
  readonly details: Readonly<Record<string, unknown>>;

  constructor(code: string, message: string, options: SkeinErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.details = options.details ?? {};
  }

  static isInstance(value: unknown): value is SkeinError {
    return typeof value === 'object' && value !== null && MARKER in value;
  }

  /** True when `value` is a SkeinError carrying `code`. */
  static hasCode(value: unknown, code: string): value is SkeinError {
    return SkeinError.isInstance(value) && value.code === code;
  }
}
