import type { EventForwarder } from './event-forwarder.js';

/** What one `generate()` call hands to the request functions. */
export interface CallContext {
  readonly model: string;
  readonly signal: AbortSignal | undefined;
  readonly timeoutMs: number | undefined;
  readonly maxRetries: number | undefined;
  readonly events: EventForwarder;
}

/** Per-request options for the `openai` package: its own timeout (per attempt) and retries. */
export function requestOptions(
  signal: AbortSignal | undefined,
  context: CallContext,
): { signal?: AbortSignal; timeout?: number; maxRetries?: number } {
  return {
    ...(signal === undefined ? {} : { signal }),
    ...(context.timeoutMs === undefined ? {} : { timeout: context.timeoutMs }),
    ...(context.maxRetries === undefined ? {} : { maxRetries: context.maxRetries }),
  };
}
