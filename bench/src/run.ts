import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchRow, toMarkdown } from './harness.js';
import { suites } from './suites.js';

// Usage: pnpm bench [suite ...]   (no names: every suite)
const wanted = process.argv.slice(2).filter((a) => a !== '--');
const selected = wanted.length === 0 ? suites : suites.filter((s) => wanted.includes(s.name));
if (selected.length === 0) {
  console.error(
    `Unknown suite(s): ${wanted.join(', ')}. Known: ${suites.map((s) => s.name).join(', ')}`,
  );
  process.exit(2);
}

const resultsDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'results');
mkdirSync(resultsDir, { recursive: true });
for (const suite of selected) {
  console.log(`\n## ${suite.name}\n`);
  const rows: BenchRow[] = await suite.run();
  console.log(toMarkdown(rows));
  const summary = suite.summarize?.(rows);
  if (summary) console.log(`\n${summary}`);
  writeFileSync(
    join(resultsDir, `${suite.name}.json`),
    `${JSON.stringify({ suite: suite.name, date: new Date().toISOString(), node: process.version, rows, summary }, null, 2)}\n`,
  );
}
