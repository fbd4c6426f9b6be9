import { randomUUID } from 'node:crypto';
import { threadIdProblem } from '@skein/spec';

/**
 * A task is one turn of a thread (decision 0038): its id names the thread (the A2A context) and
 * the turn, `<contextId>~<uuid>`, so a task is found from its id alone, in the store that is the
 * truth, with no table of its own. A UUID holds no `~`: the last one splits the two.
 */
const SEPARATOR = '~';

export function newTaskId(contextId: string): string {
  return `${contextId}${SEPARATOR}${randomUUID()}`;
}

/** The context (thread id) of a task id, or undefined when `taskId` is none this server made. */
export function contextOfTask(taskId: unknown): string | undefined {
  if (typeof taskId !== 'string') return undefined;
  const at = taskId.lastIndexOf(SEPARATOR);
  if (at <= 0 || at === taskId.length - 1) return undefined;
  const contextId = taskId.slice(0, at);
  return threadIdProblem(contextId) === undefined ? contextId : undefined;
}
