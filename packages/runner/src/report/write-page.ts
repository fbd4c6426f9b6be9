import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { RunnerError } from '../errors/runner-error.js';

/**
 * Writes a page whole: into a file beside it, then renamed over it, so a browser showing the old
 * page never reads half of the new one. Returns the page's path; `RunnerError`
 * (`RUN_FOLDER_INVALID`) when it cannot be written.
 */
export function writePage(path: string, html: string): string {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, html);
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw RunnerError.runFolder(path, 'could not be written', error);
  }
  return path;
}
