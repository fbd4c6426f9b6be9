import { type ListTasksRequest, type ListTasksResponse, type Task, TaskState } from '@a2a-js/sdk';
import { malformed } from './a2a-errors.js';
import type { EngineView } from './caller.js';
import { servedThread, taskSource } from './find-task.js';
import { checkHistoryLength } from './history-length.js';
import type { ServedAgent } from './served-agent.js';
import { taskSpans, taskView } from './thread-tasks.js';

const DEFAULT_PAGE = 50;
const MAX_PAGE = 100;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * `ListTasks`: the caller's tasks of the served workflow, the most recently updated context
 * first and its latest task first, filtered and paged as asked. A page token is the offset of
 * the page in that list.
 */
export async function listTasks(
  served: ServedAgent,
  view: EngineView,
  params: ListTasksRequest,
): Promise<ListTasksResponse> {
  const pageSize = params.pageSize ?? DEFAULT_PAGE;
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE)
    throw malformed(`pageSize must be an integer from 1 to ${MAX_PAGE}, got ${pageSize}`);
  const offset = params.pageToken === '' ? 0 : Number(params.pageToken);
  if (!Number.isInteger(offset) || offset < 0)
    throw malformed(`pageToken ${JSON.stringify(params.pageToken)} is not one this server gave`);
  checkHistoryLength(params.historyLength);
  if (params.status === TaskState.UNRECOGNIZED)
    throw malformed('status must be one of the TASK_STATE_… values');
  const after = params.statusTimestampAfter ? Date.parse(params.statusTimestampAfter) : undefined;
  if (
    params.statusTimestampAfter &&
    (!RFC3339.test(params.statusTimestampAfter) || Number.isNaN(after))
  )
    throw malformed(
      `statusTimestampAfter must be an RFC 3339 time such as 2026-11-30T12:00:00Z, got ${JSON.stringify(params.statusTimestampAfter)}`,
    );
  const store = served.engine.store!;
  const contexts = (await store.listThreads())
    .filter(
      (t) =>
        t.workflowId === served.workflowId &&
        (params.contextId === '' || t.threadId === params.contextId) &&
        (after === undefined || Date.parse(t.updatedAt) >= after),
    )
    .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
  const tasks: Task[] = [];
  for (const info of contexts) {
    const thread = await servedThread(served, view, info.threadId);
    if (!thread) continue;
    const spans = taskSpans(thread.conversation.getAllMessages());
    for (const [i, span] of [...spans.entries()].reverse()) {
      const task = await taskView(taskSource(view, thread), span, i === spans.length - 1, {
        historyLength: params.historyLength,
        artifacts: params.includeArtifacts ?? false,
      });
      if (
        params.status === TaskState.TASK_STATE_UNSPECIFIED ||
        task.status?.state === params.status
      )
        tasks.push(task);
    }
  }
  const page = tasks.slice(offset, offset + pageSize);
  const next = offset + pageSize;
  return {
    tasks: page,
    nextPageToken: next < tasks.length ? String(next) : '',
    pageSize,
    totalSize: tasks.length,
  };
}
