import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TokenUsage } from '@skein/spec';
import { RunnerError } from '../errors/runner-error.js';
import type { ItemResult, ItemStatus } from '../output/item-result.js';
import { RESULTS_FILE } from '../output/run-files.js';
import { isTornLine, scanLines } from '../output/scan-lines.js';
import { excerpt } from './format-values.js';

/** What a report keeps of an item's result. */
export interface ItemDigest {
  readonly status: ItemStatus;
  readonly threadId?: string;
  /** The start of its output, or of its error (`CODE: message`), for the items asked for. */
  readonly excerpt?: string;
}

/** The run counted from its results, for a folder without `summary.json`. */
export interface ResultsTally {
  readonly items: Readonly<Record<ItemStatus, number>> & { readonly total: number };
  readonly tokens: TokenUsage;
  /** Exact, nearest rank; absent for no results. */
  readonly durationMs?: { readonly p50: number; readonly p95: number; readonly max: number };
}

export interface ResultsDigest {
  readonly file: string;
  readonly items: ReadonlyMap<string, ItemDigest>;
  readonly tally: ResultsTally;
  /** The number of a last line without its newline, ignored as torn by a crash. */
  readonly tornLine?: number;
}

/** Characters kept of an output or error. */
const EXCERPT_LENGTH = 240;

const STATUSES: ReadonlySet<unknown> = new Set(['COMPLETED', 'FAILED', 'PAUSED', 'INVALID']);

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isResult(value: unknown): value is ItemResult {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const r = value as Partial<Record<keyof ItemResult, unknown>>;
  return typeof r.itemId === 'string' && r.itemId !== '' && STATUSES.has(r.status);
}

function tokens(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function nearestRank(sorted: Float64Array, p: number): number {
  return sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
}

function excerptOf(result: ItemResult): string | undefined {
  if (result.error !== undefined)
    return excerpt(`${String(result.error.code)}: ${String(result.error.message)}`, EXCERPT_LENGTH);
  return result.output === undefined ? undefined : excerpt(result.output, EXCERPT_LENGTH);
}

/**
 * Reads the `results.jsonl` of a run folder for a report, changing nothing (unlike a resuming
 * run, it never cuts the file): each item's status and thread, the excerpt of its output for the
 * items `keepExcerpt` names (so memory holds a few outputs, not the run's), and the counts,
 * tokens and durations of all. Undefined when the folder has no results. A torn last line is
 * ignored, as `readScores` does; any other line that is not a result is `RunnerError`
 * (`RUN_FOLDER_INVALID`).
 */
export async function readResultsDigest(
  folder: string,
  keepExcerpt: (itemId: string) => boolean = () => false,
): Promise<ResultsDigest | undefined> {
  const file = join(folder, RESULTS_FILE);
  if (!existsSync(file)) return undefined;
  const items = new Map<string, ItemDigest>();
  const counts: Record<ItemStatus, number> = { COMPLETED: 0, FAILED: 0, PAUSED: 0, INVALID: 0 };
  const usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
  const durations: number[] = [];
  let tornLine: number | undefined;
  let lineNumber = 0;
  try {
    for await (const line of scanLines(file)) {
      lineNumber++;
      if (isTornLine(line)) {
        tornLine = lineNumber;
        continue;
      }
      const result = parse(line.text);
      if (!isResult(result))
        throw RunnerError.runFolder(file, `line ${lineNumber} is not a result of a run`);
      const kept = keepExcerpt(result.itemId) ? excerptOf(result) : undefined;
      items.set(result.itemId, {
        status: result.status,
        ...(typeof result.threadId === 'string' ? { threadId: result.threadId } : {}),
        ...(kept === undefined ? {} : { excerpt: kept }),
      });
      counts[result.status]++;
      usage.promptTokens += tokens(result.usage?.promptTokens);
      usage.completionTokens += tokens(result.usage?.completionTokens);
      usage.totalTokens += tokens(result.usage?.totalTokens);
      if (typeof result.durationMs === 'number' && Number.isFinite(result.durationMs))
        durations.push(result.durationMs);
    }
  } catch (error) {
    if (RunnerError.isInstance(error)) throw error;
    throw RunnerError.runFolder(file, 'could not be read', error);
  }
  const sorted = Float64Array.from(durations).sort();
  const total = counts.COMPLETED + counts.FAILED + counts.PAUSED + counts.INVALID;
  return {
    file,
    items,
    tally: {
      items: { ...counts, total },
      tokens: usage,
      ...(sorted.length === 0
        ? {}
        : {
            durationMs: {
              p50: nearestRank(sorted, 0.5),
              p95: nearestRank(sorted, 0.95),
              max: sorted[sorted.length - 1]!,
            },
          }),
    },
    ...(tornLine === undefined ? {} : { tornLine }),
  };
}
