import { InvalidArgumentError } from 'commander';

/**
 * Commander's parser for `--out` and `--db`: an empty path would quietly mean the current folder,
 * and a NUL character would cut the path short where the file system reads it.
 */
export function parsePath(value: string): string {
  if (value.length === 0) throw new InvalidArgumentError('A path must not be empty.');
  if (value.includes('\0'))
    throw new InvalidArgumentError('A path must not contain a NUL character.');
  return value;
}
