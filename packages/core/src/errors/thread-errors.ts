import { SkeinError } from '@skein/conversation';
import type { ThreadStatus } from '../thread/thread-state.js';

/** An operation the thread's status does not allow (resume of a running thread, …). */
export class ThreadStateError extends SkeinError {
  constructor(threadId: string, status: ThreadStatus, problem: string) {
    super('THREAD_STATE', `Thread ${threadId} is ${status}: ${problem}`, {
      details: { threadId, status },
    });
  }
}

/** Input to `resume` that does not answer what the thread waits for. */
export class ResumeInputError extends SkeinError {
  constructor(threadId: string, problem: string) {
    super('RESUME_INPUT_INVALID', `Cannot resume thread ${threadId}: ${problem}`, {
      details: { threadId },
    });
  }
}

/** Initial variables that do not match the workflow's variables schema. */
export class InvalidVariablesError extends SkeinError {
  constructor(workflowId: string, problems: string) {
    super(
      'INVALID_VARIABLES',
      `Variables for workflow "${workflowId}" do not match its schema: ${problems}`,
      {
        details: { workflowId, problems },
      },
    );
  }
}

/** A node failed. Carries where to pick the thread up again. */
export class NodeExecutionError extends SkeinError {
  readonly threadId: string;
  readonly nodeId: string;
  readonly lastCheckpointId?: string;

  constructor(threadId: string, nodeId: string, cause: unknown, lastCheckpointId?: string) {
    const message = cause instanceof Error ? cause.message : String(cause);
    super('NODE_FAILED', `Node "${nodeId}" of thread ${threadId} failed: ${message}`, {
      cause,
      details: { threadId, nodeId, lastCheckpointId },
    });
    this.threadId = threadId;
    this.nodeId = nodeId;
    if (lastCheckpointId !== undefined) this.lastCheckpointId = lastCheckpointId;
  }
}

/** No outgoing edge of a node holds. */
export class NoRouteError extends SkeinError {
  constructor(nodeId: string) {
    super('NO_ROUTE', `No outgoing edge of node "${nodeId}" matches and it has no default edge`, {
      details: { nodeId },
    });
  }
}

/** The step budget ran out; the thread keeps its state and can be executed again. */
export class MaxStepsExceededError extends SkeinError {
  constructor(threadId: string, maxSteps: number, nodeId: string | undefined) {
    super(
      'MAX_STEPS_EXCEEDED',
      `Thread ${threadId} stopped after ${maxSteps} steps (next node: ${nodeId ?? 'none'})`,
      {
        details: { threadId, maxSteps, nodeId },
      },
    );
  }
}

/** The model call failed after every retry. */
export class LLMCallError extends SkeinError {
  constructor(nodeId: string, attempts: number, cause: unknown) {
    const message = cause instanceof Error ? cause.message : String(cause);
    const code = SkeinError.isInstance(cause) ? ` (${cause.code})` : '';
    super(
      'LLM_CALL_FAILED',
      `Model call of node "${nodeId}" failed after ${attempts} attempt${attempts === 1 ? '' : 's'}${code}: ${message}`,
      // Whether the same call could succeed later is the cause's to say.
      { cause, details: { nodeId, attempts }, retryable: SkeinError.isRetryable(cause) },
    );
  }
}

/** The thread was cancelled through its AbortSignal. */
export class ThreadCancelledError extends SkeinError {
  constructor(threadId: string) {
    super('THREAD_CANCELLED', `Thread ${threadId} was cancelled`, { details: { threadId } });
  }
}
