import { existsSync, truncateSync } from 'node:fs';
import { RunFolderError } from '../errors/run-folder-error.js';
import type { ItemResult } from './item-result.js';
import { scanLines } from './scan-lines.js';

export interface PreviousResults {
  /** Results read, in file order. */
  readonly count: number;
  /** Export file sizes recorded by the last whole result. */
  readonly exportBytes: Readonly<Record<string, number>>;
  /** Bytes cut from the end: a last line torn by a crash. */
  readonly tornBytes: number;
}

function isResult(value: unknown): value is ItemResult {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Partial<ItemResult>;
  return typeof record.itemId === 'string' && typeof record.status === 'string';
}

/**
 * Reads the `results.jsonl` an earlier process wrote, handing each result to `onResult`. A last
 * line cut short by a crash (not JSON, or no newline) is removed from the file so appending goes
 * on cleanly; any other bad line means the file is not a results file: `RunFolderError`, and the
 * file is left as it is.
 */
export async function readResults(
  path: string,
  onResult: (result: ItemResult) => void,
): Promise<PreviousResults> {
  if (!existsSync(path)) return { count: 0, exportBytes: {}, tornBytes: 0 };
  let count = 0;
  let exportBytes: Readonly<Record<string, number>> = {};
  let torn: { start: number; end: number } | undefined;
  let lineNumber = 0;
  for await (const line of scanLines(path)) {
    lineNumber++;
    if (torn) throw new RunFolderError(path, `line ${lineNumber - 1} is not a result`);
    let value: unknown;
    try {
      value = line.terminated ? JSON.parse(line.text) : undefined;
    } catch {
      value = undefined;
    }
    if (!isResult(value)) {
      torn = { start: line.start, end: line.end };
      continue;
    }
    onResult(value);
    count++;
    if (value.exportBytes) exportBytes = value.exportBytes;
  }
  if (torn) truncateSync(path, torn.start);
  return { count, exportBytes, tornBytes: torn ? torn.end - torn.start : 0 };
}
