import { findNonJsonValue } from '@skein/spec';
import { ThreadError } from '../errors/thread-error.js';
import { resumedPause } from '../pauses/pause-of-kind.js';
import type { SleepNode, WaitForEventNode } from '../workflow/types.js';
import type { NodeHandler } from './node-handler.js';
import { deadlineOf, isoTime, msOf, timedOut, timeOf } from './wait-time.js';

/**
 * Waits until `until` or `duration` ms from now: the thread is WAITING with `wakeAt` in its
 * state, and the engine claims the wait when the time comes. A time already passed does not
 * wait. The output is the ISO time the sleep was due.
 */
export const sleepHandler: NodeHandler<SleepNode> = (ctx) => {
  const { thread, node, services } = ctx;
  const pending = resumedPause(ctx, 'sleep');
  if (pending) return { kind: 'next', output: pending.wakeAt };
  const now = services.now();
  const { until, duration } = node.config;
  const at =
    until !== undefined
      ? timeOf(thread, node.id, until)
      : now + msOf(thread, node.id, duration!, 0);
  const wakeAt = isoTime(at);
  if (at <= now) return { kind: 'next', output: wakeAt };
  return { kind: 'pause', pending: { kind: 'sleep', nodeId: node.id, wakeAt } };
};

/**
 * Waits for an outside event (`engine.signal`, the thread's webhook) until its deadline. The
 * payload is the output, goes to `variable`, and with `addMessage` becomes a user message.
 */
export const waitForEventHandler: NodeHandler<WaitForEventNode> = (ctx) => {
  const { thread, node, resume, services } = ctx;
  const pending = resumedPause(ctx, 'event');
  const { event, timeout, onTimeout, variable, addMessage } = node.config;
  if (resume && pending) {
    if (resume.timedOut) return timedOut(node.id, pending.deadline, onTimeout);
    const payload = resume.input;
    const found = findNonJsonValue(payload, 'event');
    if (found)
      throw ThreadError.resumeInput(
        thread.threadId,
        `the event payload must be plain JSON: ${found.path} is ${found.reason}`,
      );
    if (addMessage)
      thread.conversation.addMessage({
        role: 'user',
        content: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });
    return {
      kind: 'next',
      output: payload,
      ...(variable ? { variables: { [variable]: payload } } : {}),
    };
  }
  const deadline = deadlineOf(thread, node.id, timeout, services.now());
  return {
    kind: 'pause',
    pending: { kind: 'event', nodeId: node.id, event, ...(deadline ? { deadline } : {}) },
  };
};
