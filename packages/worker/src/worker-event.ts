import type { SkeinEventMap, SkeinEventName } from '@skein/core';

/** Event names a worker forwards to subscribers (every thread-scoped engine event). */
export type ForwardedEventName = Exclude<SkeinEventName, 'error'>;

/** Every forwarded name once; `satisfies` plus the type test keep it complete. */
export const FORWARDED_EVENTS = [
  'thread:started',
  'thread:completed',
  'thread:failed',
  'thread:paused',
  'thread:cancelled',
  'node:started',
  'node:completed',
  'node:failed',
  'llm:token',
  'llm:tool-input',
  'llm:request',
  'llm:response',
  'tool:call',
  'tool:result',
  'tool:error',
  'guardrail:verdict',
  'message:added',
  'batch:started',
  'operation:applied',
  'checkpoint:saved',
  'trigger:fired',
  'warning',
] as const satisfies readonly ForwardedEventName[];

/**
 * One event as a subscriber in another process receives it. `truncated` events lost the fields
 * named in `omitted` to stay under NOTIFY's 8000-byte limit: read the full state from the store.
 */
export type WorkerEvent = {
  [K in ForwardedEventName]: {
    readonly event: K;
    readonly data: SkeinEventMap[K];
    /** Set when fields were dropped to fit NOTIFY; `data` then holds the small fields only. */
    readonly truncated?: { readonly bytes: number; readonly omitted: readonly string[] };
  };
}[ForwardedEventName];

export type WorkerEventListener = (event: WorkerEvent) => void;
