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
  /**
   * Facts a caller reads as fields (`error.threadId`): each one not undefined is set on the
   * error, and they are its `details` unless `details` is given. A class with several codes
   * declares the facts of all of them; an error carries only those of its own code.
   */
  readonly facts?: object;
}

/** What `isInstance` needs of a class: it is one, and it may name itself for the marker. */
type ErrorClass<T> = (abstract new (...args: never[]) => T) & { readonly errorName?: string };

// A class's name as its own static `errorName` gives it (minifiers rename classes, and the name
// must be the same in every copy of the package), else its JavaScript name.
function nameOf(type: ErrorClass<unknown>): string {
  return Object.hasOwn(type, 'errorName') && typeof type.errorName === 'string'
    ? type.errorName
    : type.name;
}

function markerOf(type: ErrorClass<unknown>): symbol {
  return type === SkeinError ? MARKER : Symbol.for(`skein.error.${nameOf(type)}`);
}

/**
 * Base class of every error Skein throws. `code` is stable (UPPER_SNAKE) so callers can branch on
 * it; `isInstance` works across two copies of a package in one app, where `instanceof` fails.
 *
 * Each subclass names itself once (`static override readonly errorName = 'FooError'`); the first
 * instance marks the class's prototype with `Symbol.for('skein.error.FooError')`, so
 * `FooError.isInstance(x)` holds for a FooError (or a subclass of it) from any copy, and for no
 * sibling class.
 */
export class SkeinError<Code extends string = string> extends Error {
  static readonly errorName: string = 'SkeinError';

  readonly [MARKER] = true;
  readonly code: Code;
  readonly details: Readonly<Record<string, unknown>>;
  readonly retryable: boolean;

  constructor(code: Code, message: string, options: SkeinErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = nameOf(new.target);
    this.code = code;
    this.details = options.details ?? (options.facts ? { ...options.facts } : {});
    if (options.facts)
      for (const [name, value] of Object.entries(options.facts))
        if (value !== undefined)
          Object.defineProperty(this, name, {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
    this.retryable = options.retryable ?? false;
    // Marks every class between the constructed one and SkeinError, once per class.
    for (let type: unknown = new.target; type !== SkeinError && typeof type === 'function'; ) {
      const marker = markerOf(type as ErrorClass<unknown>);
      const proto = (type as { prototype: object }).prototype;
      if (!Object.hasOwn(proto, marker)) Object.defineProperty(proto, marker, { value: true });
      type = Object.getPrototypeOf(type);
    }
  }

  /** True when `value` is an instance of this class (or a subclass), from any copy of Skein. */
  static isInstance<T>(this: ErrorClass<T>, value: unknown): value is T {
    // Called unbound (`errors.filter(SkeinError.isInstance)`), it answers for the base class.
    // biome-ignore lint/complexity/noThisInStatic: each class answers for itself, through `this`.
    const type: ErrorClass<unknown> = typeof this === 'function' ? this : SkeinError;
    return typeof value === 'object' && value !== null && markerOf(type) in value;
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
  static hasCode<C extends string>(value: unknown, code: C): value is SkeinError<C> {
    return SkeinError.isInstance(value) && value.code === code;
  }
}
