import type { SkeinEventMap } from './event-map.js';

/** The events that belong to a thread (every one but a listener's own `error`). */
export type ThreadEventName = Exclude<keyof SkeinEventMap, 'error'>;

/** One event of a thread, as `subscribe` and `onEvent` give it: its name in `type`, then its payload. */
export type ThreadEvent = {
  [K in ThreadEventName]: { readonly type: K } & SkeinEventMap[K];
}[ThreadEventName];

/** A listener of one thread's events. */
export type ThreadEventListener = (event: ThreadEvent) => void;

// A record, so adding an event to the map without listing it here fails to compile.
const NAMES: Record<ThreadEventName, true> = {
  'thread:started': true,
  'thread:completed': true,
  'thread:failed': true,
  'thread:paused': true,
  'thread:cancelled': true,
  'node:started': true,
  'node:completed': true,
  'node:failed': true,
  'llm:token': true,
  'llm:tool-input': true,
  'llm:request': true,
  'llm:response': true,
  'tool:call': true,
  'tool:result': true,
  'tool:error': true,
  'guardrail:verdict': true,
  'message:added': true,
  'batch:started': true,
  'operation:applied': true,
  'checkpoint:saved': true,
  'trigger:fired': true,
  warning: true,
};

export const THREAD_EVENT_NAMES = Object.freeze(Object.keys(NAMES)) as readonly ThreadEventName[];
