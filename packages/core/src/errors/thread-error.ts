import type { ThreadStatus } from '@skein/spec';
import { SkeinError, type SkeinErrorOptions } from '@skein/spec';

/**
 * - `THREAD_STATE`: an operation the thread's status does not allow (resuming a running thread…).
 * - `RESUME_INPUT_INVALID`: input to `resume` that does not answer what the thread waits for (the
 *   thread stays paused, untouched).
 * - `MAX_STEPS_EXCEEDED`: the step budget ran out; the thread keeps its state and can be executed
 *   again.
 * - `THREAD_CANCELLED`: the thread was cancelled through its AbortSignal.
 * - `THREAD_INTERRUPTED`: the turn ended at a safe point because a message was sent with
 *   `ifBusy: 'interrupt'`; the next turn takes that message (the thread is not cancelled for good).
 * - `THREAD_BUSY`: a message sent with `ifBusy: 'reject'` to a thread that is running, waiting or
 *   paused for approvals; nothing was posted.
 * - `STATE_CORRUPT`: a stored thread state that is not what the engine wrote (a damaged or
 *   tampered store row).
 * - `VALUE_NOT_JSON`: a value that cannot enter thread state: every store keeps state as JSON, so a
 *   BigInt, NaN, a function, a Date or a cycle would be refused or changed by one store and kept
 *   by another.
 * - `INVALID_VARIABLES`: initial variables that do not match the workflow's variables schema.
 * - `CHECKPOINT_SAVE_FAILED`: the store did not take a checkpoint. The thread went back to its last
 *   stored checkpoint (or to how it was built, when it has none): `execute` or `resume` continues
 *   from there. Retryable when the store's failure is.
 * - `UPGRADE_REFUSED`: `engine.upgrade` found threads that cannot move to the version asked for;
 *   `upgradeProblems` lists every problem of every thread, and no thread was changed.
 */
export type ThreadErrorCode =
  | 'THREAD_STATE'
  | 'RESUME_INPUT_INVALID'
  | 'MAX_STEPS_EXCEEDED'
  | 'THREAD_CANCELLED'
  | 'THREAD_INTERRUPTED'
  | 'THREAD_BUSY'
  | 'STATE_CORRUPT'
  | 'VALUE_NOT_JSON'
  | 'INVALID_VARIABLES'
  | 'CHECKPOINT_SAVE_FAILED'
  | 'UPGRADE_REFUSED';

/** One reason a thread cannot move to another workflow version (see `engine.upgrade`). */
export interface UpgradeIssue {
  readonly threadId: string;
  readonly code: string;
  readonly message: string;
  readonly nodeId?: string;
}

/** What a ThreadError can say; each code has some of these (see the factories). */
export interface ThreadErrorFacts {
  readonly threadId?: string;
  /** The thread's status (`THREAD_STATE`). */
  readonly status?: ThreadStatus;
  readonly maxSteps?: number;
  /** The node that would have run next (`MAX_STEPS_EXCEEDED`). */
  readonly nodeId?: string;
  /** The stored field that is wrong, e.g. `state.dynamicTools` (`STATE_CORRUPT`). */
  readonly field?: string;
  /** The checkpoint whose state is corrupt (`STATE_CORRUPT`). */
  readonly checkpointId?: string;
  /** What is wrong with the stored field (`STATE_CORRUPT`). */
  readonly problem?: string;
  /** Where the value was going: `variable "total"`, `input`, `output of node "calc"`. */
  readonly target?: string;
  /** The offending part of the value, e.g. `vars.total.items[2]`. */
  readonly path?: string;
  /** What is wrong with it, e.g. `a BigInt (JSON has no BigInt)`. */
  readonly reason?: string;
  readonly workflowId?: string;
  /** What the variables schema check found, as one line of text (`INVALID_VARIABLES`). */
  readonly problems?: string;
  /** The last checkpoint the store holds for the thread (`CHECKPOINT_SAVE_FAILED`). */
  readonly lastCheckpointId?: string;
  /** The version an upgrade was asked to move to (`UPGRADE_REFUSED`). */
  readonly toVersion?: string;
  /** Every problem found, per thread (`UPGRADE_REFUSED`). */
  readonly upgradeProblems?: readonly UpgradeIssue[];
}

/**
 * A thread call (`execute`, `resume`, building or loading a thread, setting its variables) could
 * not go on. Nothing was lost: the thread is as it was before the call, or at its last checkpoint.
 */
export class ThreadError<Code extends ThreadErrorCode = ThreadErrorCode> extends SkeinError<Code> {
  static override readonly errorName = 'ThreadError';
  declare readonly threadId?: string;
  declare readonly status?: ThreadStatus;
  declare readonly maxSteps?: number;
  declare readonly nodeId?: string;
  declare readonly field?: string;
  declare readonly checkpointId?: string;
  declare readonly problem?: string;
  declare readonly target?: string;
  declare readonly path?: string;
  declare readonly reason?: string;
  declare readonly workflowId?: string;
  declare readonly problems?: string;
  declare readonly lastCheckpointId?: string;
  declare readonly toVersion?: string;
  declare readonly upgradeProblems?: readonly UpgradeIssue[];

  /** The facts given become fields, and `details` unless `options.details` is given. */
  constructor(
    code: Code,
    message: string,
    facts: ThreadErrorFacts = {},
    options: SkeinErrorOptions = {},
  ) {
    super(code, message, { ...options, facts });
  }

  static state(
    threadId: string,
    status: ThreadStatus,
    problem: string,
  ): ThreadError<'THREAD_STATE'> {
    return new ThreadError('THREAD_STATE', `Thread ${threadId} is ${status}: ${problem}`, {
      threadId,
      status,
    });
  }

  static resumeInput(threadId: string, problem: string): ThreadError<'RESUME_INPUT_INVALID'> {
    return new ThreadError('RESUME_INPUT_INVALID', `Cannot resume thread ${threadId}: ${problem}`, {
      threadId,
    });
  }

  /** `nodeId` is the node that would have run next. */
  static maxSteps(
    threadId: string,
    maxSteps: number,
    nodeId: string | undefined,
  ): ThreadError<'MAX_STEPS_EXCEEDED'> {
    return new ThreadError(
      'MAX_STEPS_EXCEEDED',
      `Thread ${threadId} stopped after ${maxSteps} steps (next node: ${nodeId ?? 'none'})`,
      { threadId, maxSteps, nodeId },
    );
  }

  static cancelled(threadId: string): ThreadError<'THREAD_CANCELLED'> {
    return new ThreadError('THREAD_CANCELLED', `Thread ${threadId} was cancelled`, { threadId });
  }

  static interrupted(threadId: string): ThreadError<'THREAD_INTERRUPTED'> {
    return new ThreadError(
      'THREAD_INTERRUPTED',
      `Thread ${threadId}: the turn was interrupted by a new message, which the next turn takes`,
      { threadId },
    );
  }

  static busy(threadId: string, status: ThreadStatus, why: string): ThreadError<'THREAD_BUSY'> {
    return new ThreadError(
      'THREAD_BUSY',
      `Thread ${threadId} is busy (${status}): ${why}; the message was not posted (ifBusy: "reject")`,
      { threadId, status },
    );
  }

  static stateCorrupt(
    threadId: string,
    checkpointId: string | undefined,
    field: string,
    problem: string,
  ): ThreadError<'STATE_CORRUPT'> {
    return new ThreadError(
      'STATE_CORRUPT',
      `Stored state of thread ${threadId}${checkpointId ? ` (checkpoint ${checkpointId})` : ''} is corrupt: ${field} ${problem}`,
      { threadId, checkpointId, field, problem },
    );
  }

  static valueNotJson(target: string, path: string, reason: string): ThreadError<'VALUE_NOT_JSON'> {
    return new ThreadError(
      'VALUE_NOT_JSON',
      `${target[0]!.toUpperCase()}${target.slice(1)} cannot be stored: ${path} is ${reason}; thread state holds plain JSON only`,
      { target, path, reason },
    );
  }

  static invalidVariables(workflowId: string, problems: string): ThreadError<'INVALID_VARIABLES'> {
    return new ThreadError(
      'INVALID_VARIABLES',
      `Variables for workflow "${workflowId}" do not match its schema: ${problems}`,
      { workflowId, problems },
    );
  }

  /** `lastCheckpointId`: the checkpoint the thread went back to, undefined when there is none. */
  static checkpointSaveFailed(
    threadId: string,
    lastCheckpointId: string | undefined,
    cause: unknown,
  ): ThreadError<'CHECKPOINT_SAVE_FAILED'> {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return new ThreadError(
      'CHECKPOINT_SAVE_FAILED',
      `Checkpoint of thread ${threadId} could not be saved (${reason}); the thread went back to ${lastCheckpointId ? `checkpoint ${lastCheckpointId}` : 'how it was built'}`,
      { threadId, lastCheckpointId },
      { cause, retryable: SkeinError.isRetryable(cause) },
    );
  }

  static upgradeRefused(
    workflowId: string,
    toVersion: string,
    upgradeProblems: readonly UpgradeIssue[],
  ): ThreadError<'UPGRADE_REFUSED'> {
    const threads = new Set(upgradeProblems.map((p) => p.threadId)).size;
    const lines = upgradeProblems.map((p) => `thread ${p.threadId}: ${p.message}`);
    const shown = lines.slice(0, 10).join('; ');
    return new ThreadError(
      'UPGRADE_REFUSED',
      `Cannot upgrade ${threads} thread${threads === 1 ? '' : 's'} of workflow "${workflowId}" to version "${toVersion}" (nothing was changed): ${shown}${lines.length > 10 ? `; and ${lines.length - 10} more` : ''}`,
      { workflowId, toVersion, upgradeProblems },
    );
  }
}
