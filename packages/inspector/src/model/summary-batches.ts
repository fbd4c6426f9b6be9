import type { LLMMessage } from '@skein/spec';
import type { BatchRecord, Boundary } from './types.js';

/**
 * Marks the batches a SUMMARIZE started (their view shows a summary stored when they began) and
 * the boundary drawn where each starts, so the page says that earlier messages were summarised
 * rather than only that a batch began. The log does not name the operation that started a batch:
 * the summary message itself (`metadata.kind: 'summary'`) does.
 */
export function markSummaries(
  batches: readonly BatchRecord[],
  boundaries: readonly Boundary[],
  messages: readonly LLMMessage[],
): { batches: BatchRecord[]; boundaries: Boundary[] } {
  const marked = batches.map((batch) => {
    const position = batch.visible.find(
      (p) => p >= batch.startedAt && messages[p]?.metadata?.kind === 'summary',
    );
    if (position === undefined) return batch;
    const summarized = messages[position]!.metadata?.summarized;
    return {
      ...batch,
      summary: { position, ...(typeof summarized === 'number' ? { summarized } : {}) },
    };
  });
  const startedBySummary = new Map(
    marked.flatMap((b) => (b.summary ? [[b.startedAt, b] as const] : [])),
  );
  return {
    batches: marked,
    boundaries: boundaries.map((boundary) => {
      const batch =
        boundary.kind === 'batch' || boundary.kind === 'clear'
          ? startedBySummary.get(boundary.at)
          : undefined;
      if (!batch?.summary) return boundary;
      const count = batch.summary.summarized;
      return {
        kind: 'summary',
        at: boundary.at,
        label: `batch ${batch.stackIndex} starts with a summary${count === undefined ? '' : ` of ${count} earlier message${count === 1 ? '' : 's'}`} (they stay stored)`,
      };
    }),
  };
}
