import { NodeError } from '../errors/node-error.js';
import type { ThreadContext } from '../thread/thread-context.js';
import { evaluateIn } from './node-expressions.js';
import type { NodeOutcome } from './node-handler.js';

// What a Date can hold: ±8.64e15 ms from 1970.
const MAX_TIME = 8.64e15;

/** Epoch ms as the ISO time stored in a checkpoint. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * Milliseconds from a node's config: a number as it is, or an expression evaluated against the
 * thread, which must give a finite number of at least `min`.
 */
export function msOf(
  thread: ThreadContext,
  nodeId: string,
  value: number | string,
  min: number,
): number {
  if (typeof value === 'number') return value;
  const got = evaluateIn(thread, value);
  if (typeof got !== 'number' || !Number.isFinite(got) || got < min || got > MAX_TIME)
    throw NodeError.waitTimeInvalid(nodeId, value, got, `milliseconds (at least ${min})`);
  return got;
}

/** An ISO 8601 time from an expression, as epoch ms. */
export function timeOf(thread: ThreadContext, nodeId: string, expression: string): number {
  const got = evaluateIn(thread, expression);
  const ms = typeof got === 'string' ? Date.parse(got) : Number.NaN;
  if (Number.isNaN(ms))
    throw NodeError.waitTimeInvalid(nodeId, expression, got, 'an ISO 8601 time');
  return ms;
}

/** The deadline of a wait with `timeout`, as an ISO time from `now`; undefined without one. */
export function deadlineOf(
  thread: ThreadContext,
  nodeId: string,
  timeout: number | string | undefined,
  now: number,
): string | undefined {
  if (timeout === undefined) return undefined;
  return isoTime(Math.min(now + msOf(thread, nodeId, timeout, 1), MAX_TIME));
}

/** A wait that timed out: on to `onTimeout`, or the node fails with `WAIT_TIMED_OUT`. */
export function timedOut(
  nodeId: string,
  deadline: string | undefined,
  onTimeout: string | undefined,
): NodeOutcome {
  if (onTimeout === undefined) throw NodeError.waitTimedOut(nodeId, deadline ?? 'unknown');
  return { kind: 'next', goto: onTimeout };
}
