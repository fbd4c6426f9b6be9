import { findNonJsonValue } from '@skein/spec';
import { ThreadError } from '../errors/thread-error.js';

/**
 * A person's answer, refused as resume input (the thread stays paused, the caller may answer
 * again) when it is not plain JSON: it is stored with the pause.
 */
export function plainAnswer(threadId: string, answer: unknown): unknown {
  const found = findNonJsonValue(answer, 'input');
  if (found)
    throw ThreadError.resumeInput(
      threadId,
      `the answer must be plain JSON: ${found.path} is ${found.reason}`,
    );
  return answer;
}
