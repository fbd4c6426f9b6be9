import { invalidCompletion } from '../errors/provider-errors.js';
import { ReActStopDetector } from '../react/stop-detector.js';

export type CompletionOutput = string | AsyncIterable<string>;

export type StopCause = 'action-complete' | 'stop-string' | 'end';

export interface CollectedCompletion {
  readonly text: string;
  readonly stoppedBy: StopCause;
}

export interface CollectOptions {
  readonly stop: readonly string[];
  /** Stop a token stream once the Action Input object is complete. */
  readonly stopAtCompleteAction: boolean;
  readonly onDelta?: (delta: string) => void;
  /** Called when the stream is cut short, before the iterator is closed. */
  readonly onEarlyStop?: () => void;
  readonly signal?: AbortSignal;
}

function firstStop(text: string, stops: readonly string[], from: number): number {
  let best = -1;
  for (const stop of stops) {
    if (stop === '') continue;
    const at = text.indexOf(stop, from);
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best;
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * Reads what a completion function produced. A string is cut at the first stop string. A token
 * stream is forwarded as it comes (holding back only what could be the start of a stop string),
 * and closed early at a stop string or, when asked, at the moment the Action Input is complete.
 */
export async function collectCompletion(
  output: unknown,
  options: CollectOptions,
): Promise<CollectedCompletion> {
  if (typeof output === 'string') {
    const cut = firstStop(output, options.stop, 0);
    return cut < 0
      ? { text: output, stoppedBy: 'end' }
      : { text: output.slice(0, cut), stoppedBy: 'stop-string' };
  }
  if (!isAsyncIterable(output)) throw invalidCompletion(describe(output));
  const longestStop = Math.max(0, ...options.stop.map((s) => s.length));
  const holdBack = Math.max(0, longestStop - 1);
  const detector = options.stopAtCompleteAction ? new ReActStopDetector() : undefined;
  let text = '';
  let emitted = 0;
  const emitUpTo = (end: number): void => {
    if (end > emitted) {
      options.onDelta?.(text.slice(emitted, end));
      emitted = end;
    }
  };
  for await (const token of output) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (typeof token !== 'string') throw invalidCompletion(`a stream yielding ${describe(token)}`);
    const before = text.length;
    text += token;
    let cut = firstStop(text, options.stop, Math.max(0, before - holdBack));
    let cause: StopCause = 'stop-string';
    if (detector?.feed(token) && (cut < 0 || detector.stopIndex <= cut)) {
      cut = detector.stopIndex;
      cause = 'action-complete';
    }
    if (cut >= 0) {
      text = text.slice(0, cut);
      emitUpTo(text.length);
      options.onEarlyStop?.();
      return { text, stoppedBy: cause };
    }
    emitUpTo(text.length - holdBack);
  }
  emitUpTo(text.length);
  return { text, stoppedBy: 'end' };
}
