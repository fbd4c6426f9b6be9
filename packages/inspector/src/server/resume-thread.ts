import type { SkeinEngine } from '@skein/core';
import { InvalidArgumentError } from '@skein/spec';
import { notAllowed, threadNotPaused } from './refusals.js';

/**
 * The engine that may resume threads from the page, or why none may. Asked before the request's
 * body is read: a read-only inspector refuses without reading anything.
 */
export function resumingEngine(
  engine: SkeinEngine | undefined,
  allowResume: boolean,
  threadId: string,
): SkeinEngine {
  if (!allowResume) throw notAllowed('resume', threadId, 'read-only');
  if (engine === undefined) throw notAllowed('resume', threadId, 'no-engine');
  return engine;
}

/** The `input` of a resume request's body `{ input }`. */
export function resumeInput(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('input' in body))
    throw new InvalidArgumentError('input', 'The body must be a JSON object { "input": … }');
  return body.input;
}

/**
 * Claims a paused thread's pause with `input` (the answer, or `true` / `false` /
 * `{ approvals }` for a tool approval) and returns once the claim is stored; the run goes on in
 * the background and the page follows it live. Of two requests racing for one pause, the second
 * fails with `RESUME_CONFLICT` before anything ran. Failures of the run itself end up in the
 * thread (and the store), where the page shows them.
 */
export async function claimThread(
  engine: SkeinEngine,
  threadId: string,
  input: unknown,
  onBackgroundError: (error: unknown) => void,
): Promise<{ threadId: string; checkpointId: string | undefined }> {
  const thread = await engine.loadThread(threadId);
  if (thread.status !== 'PAUSED') throw threadNotPaused(threadId, thread.status);
  const started = await engine.claimResume(thread, input);
  started.result.catch(onBackgroundError);
  return { threadId: started.threadId, checkpointId: started.checkpointId };
}
