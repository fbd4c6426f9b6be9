import type { SkeinEngine } from '@skein/core';
import { ResumeNotAllowedError } from '../errors/resume-not-allowed-error.js';
import { ThreadNotPausedError } from '../errors/thread-not-paused-error.js';

/**
 * Loads a paused thread and resumes it with `input` (the answer, or `true` / `false` /
 * `{ approvals }` for a tool approval). Returns once the engine accepted the input; the run goes
 * on in the background and the page follows it live. Failures of the run itself end up in the
 * thread (and the store), where the page shows them.
 */
export async function resumeThread(
  engine: SkeinEngine | undefined,
  allowResume: boolean,
  threadId: string,
  input: unknown,
  onBackgroundError: (error: unknown) => void,
): Promise<void> {
  if (!allowResume) throw new ResumeNotAllowedError(threadId, 'read-only');
  if (engine === undefined) throw new ResumeNotAllowedError(threadId, 'no-engine');
  const thread = await engine.loadThread(threadId);
  if (thread.status !== 'PAUSED') throw new ThreadNotPausedError(threadId, thread.status);
  engine.resume(thread, input).catch(onBackgroundError);
}
