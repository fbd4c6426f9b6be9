import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ItemResult, ItemStatus } from '../output/item-result.js';
import type { ScoreLine } from '../score/read-scores.js';
import type { RunSummary } from '../summary/run-summary.js';

interface FakeItem {
  readonly itemId: string;
  readonly status?: ItemStatus;
  readonly output?: unknown;
  readonly error?: ItemResult['error'];
  readonly durationMs?: number;
}

export interface FakeRun {
  readonly runId: string;
  readonly items?: readonly FakeItem[];
  readonly scores?: readonly ScoreLine[];
  /** Write summary.json too (counted from the items). */
  readonly summary?: boolean;
}

/** A run folder as `skein run` and a scorer leave it, written without running anything. */
export function writeFakeRun(folder: string, run: FakeRun): string {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'run.json'), JSON.stringify({ runId: run.runId, workflowId: 'qa' }));
  const items = run.items ?? [];
  const results: ItemResult[] = items.map((item) => {
    const status = item.status ?? 'COMPLETED';
    return {
      itemId: item.itemId,
      ...(status === 'INVALID' ? {} : { threadId: `${run.runId}/${item.itemId}` }),
      status,
      ...(item.output === undefined ? {} : { output: item.output }),
      usage: { promptTokens: 10, completionTokens: 5, totalTokens: 15 },
      durationMs: item.durationMs ?? 100,
      ...(item.error === undefined ? {} : { error: item.error }),
    };
  });
  writeFileSync(
    join(folder, 'results.jsonl'),
    results.map((result) => `${JSON.stringify(result)}\n`).join(''),
  );
  if (run.scores !== undefined)
    writeFileSync(
      join(folder, 'scores.jsonl'),
      run.scores.map((line) => `${JSON.stringify(line)}\n`).join(''),
    );
  if (run.summary) {
    const count = (status: ItemStatus) => results.filter((r) => r.status === status).length;
    const summary: RunSummary = {
      runId: run.runId,
      workflowId: 'qa',
      items: {
        COMPLETED: count('COMPLETED'),
        FAILED: count('FAILED'),
        PAUSED: count('PAUSED'),
        INVALID: count('INVALID'),
        total: results.length,
      },
      resumed: 0,
      finished: true,
      tokens: {
        promptTokens: 10 * results.length,
        completionTokens: 5 * results.length,
        totalTokens: 15 * results.length,
      },
      durationMs: { p50: 100, p95: 180, max: 2500 },
      elapsedMs: 4200,
      topErrors: [],
    };
    writeFileSync(join(folder, 'summary.json'), JSON.stringify(summary, null, 2));
  }
  return folder;
}
