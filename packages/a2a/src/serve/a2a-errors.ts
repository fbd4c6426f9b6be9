import {
  RequestMalformedError,
  TaskNotCancelableError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import { SkeinError } from '@skein/spec';

/** The answer to a task id that names no task this caller may see: one answer for all three. */
export function taskNotFound(taskId: unknown): Error {
  return new TaskNotFoundError(`No task ${JSON.stringify(taskId)}: it does not exist`);
}

export const notCancelable = (taskId: string, why: string): Error =>
  new TaskNotCancelableError(`Task ${taskId} cannot be canceled: ${why}`);

export const unsupported = (message: string): Error => new UnsupportedOperationError(message);

export const malformed = (message: string): Error => new RequestMalformedError(message);

/**
 * A Skein error as the A2A error a client can act on; anything else is thrown as it is (the
 * transport answers it as an internal error). A thread another caller owns is not found, as one
 * that does not exist is.
 */
export function toA2AError(error: unknown, taskId?: unknown): unknown {
  if (!SkeinError.isInstance(error)) return error;
  switch (error.code) {
    case 'CHECKPOINT_NOT_FOUND':
      return taskNotFound(taskId);
    case 'INVALID_ARGUMENT':
    case 'RESUME_INPUT_INVALID':
      return malformed(error.message);
    case 'THREAD_BUSY':
    case 'THREAD_STATE':
    case 'RESUME_CONFLICT':
      return unsupported(error.message);
    default:
      return error;
  }
}
