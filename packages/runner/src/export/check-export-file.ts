import { isAbsolute, normalize, sep } from 'node:path';
import { invalidOption } from '../errors/invalid-option.js';
import { RUN_FILES } from '../output/run-files.js';

/**
 * Throws `InvalidArgumentError` unless every one of `files` is a path inside the run folder and not
 * a file of the run itself: an export appends to its file and cuts it back on resume, which
 * outside the folder, or on `results.jsonl`, would change files the export does not own.
 */
export function checkExportFiles(option: string, files: readonly unknown[]): void {
  for (const file of files) {
    if (typeof file !== 'string' || file === '')
      throw invalidOption(option, 'must be a file name inside the run folder');
    const path = normalize(file);
    if (isAbsolute(file) || path === '..' || path.startsWith(`..${sep}`) || path === '.')
      throw invalidOption(option, `${file} is not inside the run folder`);
    if (RUN_FILES.includes(path))
      throw invalidOption(option, `${file} is a file of the run itself`);
  }
}
