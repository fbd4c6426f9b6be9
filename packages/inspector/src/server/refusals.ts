import { HttpRequestError } from '@skein/http';
import type { ThreadStatus } from '@skein/spec';

/**
 * The page asked to resume or fork a thread, but this inspector may not: read-only (no
 * `allowResume` / `allowFork`) or no engine to run it (403 `RESUME_NOT_ALLOWED` /
 * `FORK_NOT_ALLOWED`).
 */
export function notAllowed(
  action: 'resume' | 'fork',
  threadId: string,
  reason: 'read-only' | 'no-engine',
): HttpRequestError<'RESUME_NOT_ALLOWED' | 'FORK_NOT_ALLOWED'> {
  const code = action === 'resume' ? 'RESUME_NOT_ALLOWED' : 'FORK_NOT_ALLOWED';
  const done = action === 'resume' ? 'resumed' : 'forked';
  const why =
    reason === 'no-engine'
      ? `it has no engine to run the ${action === 'resume' ? 'thread' : 'fork'} (pass engine to startInspector)`
      : action === 'resume'
        ? 'it is read-only (start it with allowResume: true and an engine)'
        : 'forking is not allowed (start it with allowFork: true and an engine)';
  return new HttpRequestError(
    code,
    `Thread ${threadId} cannot be ${done} from this inspector: ${why}`,
    { threadId, reason },
  );
}

/** An answer sent for a thread that waits for none (409 `THREAD_NOT_PAUSED`). */
export function threadNotPaused(
  threadId: string,
  status: ThreadStatus,
): HttpRequestError<'THREAD_NOT_PAUSED'> {
  return new HttpRequestError(
    'THREAD_NOT_PAUSED',
    `Thread ${threadId} is ${status}, not PAUSED: there is nothing to answer`,
    { threadId, threadStatus: status },
    { details: { threadId, status } },
  );
}
