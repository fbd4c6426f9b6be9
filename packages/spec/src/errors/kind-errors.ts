import { SkeinError } from './skein-error.js';

// One class per kind of reaction a caller needs, each with the package's own code union: a
// caller branches on the class ("something was not there", "a store failed", "a provider
// failed", "someone else got there first") and, where it cares, on `code`. Facts go in `details`.

/** Something asked for by name or id does not exist: a workflow, a tool, a thread, a route. */
export class NotFoundError<Code extends string = string> extends SkeinError<Code> {
  static override readonly errorName: string = 'NotFoundError';
}

/**
 * What was asked clashes with what is there now: another caller took it first (a resume claimed
 * the pause, a process holds the thread's lease, a writer saved a checkpoint in between). Asking
 * again after loading what is there now can succeed.
 */
export class ConflictError<Code extends string = string> extends SkeinError<Code> {
  static override readonly errorName: string = 'ConflictError';
}

/**
 * A store could not do what was asked: closed, corrupt, busy, too new for this package, a value
 * it cannot keep, its database or disk failing. `retryable` says whether trying again can help.
 */
export class StoreError<Code extends string = string> extends SkeinError<Code> {
  static override readonly errorName: string = 'StoreError';
}

/**
 * A model provider or remote server failed: a request refused or timed out, a stream cut or
 * malformed, a rate limit. `retryable` follows the provider (429, 5xx, timeouts: true).
 */
export class ProviderError<Code extends string = string> extends SkeinError<Code> {
  static override readonly errorName: string = 'ProviderError';
}
