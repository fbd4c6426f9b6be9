import { ThreadError } from '../errors/thread-error.js';
import type { GuardrailStage } from '../guardrails/guardrail.js';
import { GuardrailError } from '../guardrails/guardrail-error.js';
import { pauseKindOf } from '../pauses/pause-kinds.js';
import type { ThreadContext } from '../thread/thread-context.js';
import { checkOptionalNumber } from '../util/check-number.js';
import { resumeConflict } from './resume-conflict.js';
import type { ExecuteOptions } from './thread-result.js';

const MAX_STEPS_RANGE = { min: 1, max: Number.MAX_SAFE_INTEGER, integer: true } as const;

/** `maxSteps` of an `execute` or `resume` call: an integer from 1 to 2^53 - 1 (default 1,000). */
export function checkMaxSteps(options: ExecuteOptions): number {
  return checkOptionalNumber('maxSteps', options.maxSteps, MAX_STEPS_RANGE, 1_000);
}

/** Throws unless `execute` may run the thread (not completed, not waiting for input). */
export function checkExecutable(thread: ThreadContext): void {
  const status = thread.status;
  if (status === 'COMPLETED')
    throw ThreadError.state(thread.threadId, status, 'it has already completed');
  if (status === 'PAUSED')
    throw ThreadError.state(
      thread.threadId,
      status,
      'it waits for input; call resume(thread, input)',
    );
  if (status === 'WAITING') throw ThreadError.state(thread.threadId, status, waitingFor(thread));
  refuseTripped(thread);
}

/**
 * A thread a guardrail stopped stays stopped: running it again would slip past the tripwire.
 * Throws the stored trip (`GUARDRAIL_TRIPPED`); a chat's next message starts a new turn instead
 * (`engine.send`), unless the trip ended the chat.
 */
export function refuseTripped(thread: ThreadContext): void {
  const trip = thread.state.error?.guardrail;
  if (!trip || thread.status !== 'FAILED') return;
  throw GuardrailError.tripped({
    guardrail: trip.name,
    stage: trip.stage as GuardrailStage,
    reason: trip.reason,
    ...(trip.endsChat ? { endsChat: true } : {}),
    ...(trip.toolCallId === undefined
      ? {}
      : { toolCallId: trip.toolCallId, toolName: trip.toolName ?? '' }),
  });
}

/** What a WAITING thread waits for, and what wakes it. */
export function waitingFor(thread: ThreadContext): string {
  const pending = thread.state.pending;
  return pending && pauseKindOf(pending).endedBy(pending) === 'engine'
    ? pauseKindOf(pending).waitingFor(pending)
    : 'it waits for the engine to wake it';
}

/**
 * Throws unless `resume` may continue the thread with `input`: a caller answers a PAUSED thread;
 * only the engine (`wake`) wakes a WAITING one or times a wait out.
 */
export function checkResumable(
  thread: ThreadContext,
  resume: { readonly input: unknown; readonly timedOut?: boolean; readonly wake?: boolean },
): void {
  const pending = thread.state.pending;
  const { input } = resume;
  refuseTripped(thread);
  if (pending?.answer) throw resumeConflict(thread, undefined);
  if (thread.status === 'WAITING' && !resume.wake)
    throw ThreadError.state(thread.threadId, thread.status, waitingFor(thread));
  if ((thread.status !== 'PAUSED' && thread.status !== 'WAITING') || !pending)
    throw ThreadError.state(thread.threadId, thread.status, 'only a PAUSED thread can be resumed');
  const kind = pauseKindOf(pending);
  const refused = resume.wake ? undefined : kind.refuseCaller(pending, input);
  if (refused !== undefined) throw ThreadError.state(thread.threadId, thread.status, refused);
  if (resume.timedOut) return;
  if (input === undefined)
    throw ThreadError.resumeInput(
      thread.threadId,
      `it waits for ${pending.kind}; input is missing`,
    );
  // A caller's answer is checked against the pause before it is claimed (the engine's own wakes
  // carry what the wait itself asked for).
  if (!resume.wake) kind.checkAnswer(thread.threadId, pending, input);
}
