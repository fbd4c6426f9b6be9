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
  // Written out: a spread followed by more keys gives each result a hidden class of its own on
  // Node 20, and the `openai` package reads these options on every request (core decision 0009).
  const options: { signal?: AbortSignal; timeout?: number; maxRetries: number } = {
    maxRetries: context.maxRetries,
  };
  if (signal !== undefined) options.signal = signal;
  if (context.timeoutMs !== undefined) options.timeout = context.timeoutMs;
  return options;
}
