import { closeSync, openSync, writeSync } from 'node:fs';

/** A JSONL file of `n` items `{ id, q }`, written in chunks so the writer's memory stays small. */
export function writeInput(path: string, n: number): void {
  const fd = openSync(path, 'w');
  try {
    for (let from = 0; from < n; from += 1_000) {
      let chunk = '';
      for (let i = from; i < Math.min(n, from + 1_000); i++)
        chunk += `${JSON.stringify({ id: `i${i}`, q: `question ${i}` })}\n`;
      writeSync(fd, chunk);
    }
  } finally {
    closeSync(fd);
  }
}
