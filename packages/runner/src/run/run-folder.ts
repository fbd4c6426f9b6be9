import {
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { RunFolderError } from '../errors/run-folder-error.js';

export const RESULTS_FILE = 'results.jsonl';
export const SUMMARY_FILE = 'summary.json';
const RUN_FILE = 'run.json';

/** Creates the folder, or checks that it belongs to this run (`run.json` names the run id). */
export function claimRunFolder(folder: string, runId: string, workflowId: string): void {
  mkdirSync(folder, { recursive: true });
  const path = join(folder, RUN_FILE);
  if (existsSync(path)) {
    let known: { runId?: unknown };
    try {
      known = JSON.parse(readFileSync(path, 'utf8')) as { runId?: unknown };
    } catch (error) {
      throw new RunFolderError(path, 'is not JSON', error);
    }
    if (known.runId !== runId)
      throw new RunFolderError(
        path,
        `belongs to run "${String(known.runId)}", not "${runId}": use another folder or that run id`,
      );
    return;
  }
  writeFileSync(
    path,
    `${JSON.stringify({ runId, workflowId, createdAt: new Date().toISOString() }, null, 2)}\n`,
  );
}

/** The run id recorded in a run folder, if it has one. */
export function recordedRunId(folder: string): string | undefined {
  try {
    const runId = (JSON.parse(readFileSync(join(folder, RUN_FILE), 'utf8')) as { runId?: unknown })
      .runId;
    return typeof runId === 'string' ? runId : undefined;
  } catch {
    return undefined;
  }
}

/** Cuts an export file back to `bytes` (lines of items whose result was never written go). */
export function cutExportFile(folder: string, file: string, bytes: number): void {
  const path = join(folder, file);
  mkdirSync(dirname(path), { recursive: true });
  if (existsSync(path) && statSync(path).size > bytes) truncateSync(path, bytes);
}
