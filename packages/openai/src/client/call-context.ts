import type { EventForwarder } from './event-forwarder.js';

/** What one `generate()` call hands to the request functions. */
export interface CallContext {
  readonly model: string;
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number | undefined;
  /** Retries the `openai` package may make itself; 0 unless the user asked for more. */
  readonly maxRetries: number;
  /** Bounds on what one response may hold; `undefined` keeps the defaults. */
  readonly limits: { readonly maxLineLength?: number; readonly maxTextLength?: number };
  readonly events: EventForwarder;
}

/**
 * Per-request options for the `openai` package: its own timeout (per attempt) and retries. The
 * retry count is always set, so an `openai` client passed in does not retry on top of the engine.
 */
export function requestOptions(
  signal: AbortSignal | undefined,
  context: CallContext,
): { signal?: AbortSignal; timeout?: number; maxRetries: number } {
  return {
    maxRetries: context.maxRetries,
    ...(signal === undefined ? {} : { signal }),
    ...(context.timeoutMs === undefined ? {} : { timeout: context.timeoutMs }),
  };
}
