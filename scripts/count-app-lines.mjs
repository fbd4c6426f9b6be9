#!/usr/bin/env node
// Counts the lines of app code in the files given: non-blank, not comment-only, as the repository
// formats them (run `biome format` first). Issue 33 measures the chat service with it.
// Usage: node scripts/count-app-lines.mjs <file>... (prints the count per file and the total).
import { readFileSync } from 'node:fs';

/** Lines that are code: a line inside a block comment, or a `//` line, is not. */
export function countCodeLines(source) {
  let count = 0;
  let inBlock = false;
  for (const raw of source.split('\n')) {
    const line = raw.trim();
    if (inBlock) {
      if (line.includes('*/')) inBlock = false;
      continue;
    }
    if (line === '' || line.startsWith('//')) continue;
    if (line.startsWith('/*')) {
      if (!line.includes('*/')) inBlock = true;
      continue;
    }
    count++;
  }
  return count;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let total = 0;
  for (const file of process.argv.slice(2)) {
    const n = countCodeLines(readFileSync(file, 'utf8'));
    total += n;
    console.log(`${String(n).padStart(5)}  ${file}`);
  }
  console.log(`${String(total).padStart(5)}  total`);
}
