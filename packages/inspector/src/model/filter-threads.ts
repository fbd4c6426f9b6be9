import type { ThreadSummary } from './types.js';

export interface ThreadFilter {
  readonly status?: string;
  readonly workflow?: string;
  /** Matched, case-insensitively, against the thread id, workflow id and last error. */
  readonly text?: string;
}

export function filterThreads(
  threads: readonly ThreadSummary[],
  filter: ThreadFilter,
): ThreadSummary[] {
  const text = filter.text?.trim().toLowerCase();
  return threads.filter(
    (t) =>
      (!filter.status || t.status === filter.status.toUpperCase()) &&
      (!filter.workflow || t.workflowId === filter.workflow) &&
      (!text ||
        [t.threadId, t.workflowId, t.lastError?.message ?? '', t.lastError?.code ?? ''].some((s) =>
          s.toLowerCase().includes(text),
        )),
  );
}
