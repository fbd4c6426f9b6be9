import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchRow } from './harness.js';
import { memoryBySize } from './runner/memory-by-size.js';
import { killWorkerAt, measureInWorker, tempFolder } from './runner/spawn-worker.js';
import { writeInput } from './runner/write-input.js';
import type { BenchSuite } from './suite.js';

// Issue 16's figures. A 5-node workflow (START, VARIABLE, LLM with the scripted model, VARIABLE,
// END) over a dataset with @skein/runner, every measurement in its own process so peak RSS is
// its own:
// - 10,000 items at concurrency 64: items/s and peak RSS, against the same threads run by hand
//   with Promise.all in batches of 64 (the runner's overhead per item; goal ≤ 0.2 ms);
// - peak RSS at 1k, 10k and 50k items read from a JSONL file (goal: 50k within 1.2× of 1k),
//   3 runs each, beside the heap retained after a full GC at the last item (what the run keeps)
//   and V8's peak old generation (what it lets garbage grow to), by hand and with a capped young
//   generation for comparison (memory-by-size.ts). Every worker runs compiled, without the
//   TypeScript loader (compiled-worker.ts);
// - SIGKILL at 50% of a 10k-item run on the SQLite store, then a rerun: time to the first new
//   item (goal < 1 s).
// No checkpoint store in the first two (an in-memory store would keep every thread and grow
// with the dataset, which is the store's memory, not the runner's).

const SUITE = 'runner';
const quick = process.env.BENCH_QUICK === '1';
const N = quick ? 2_000 : 10_000;
const CONCURRENCY = 64;
const SIZES = quick ? [1_000, 2_000, 5_000] : [1_000, 10_000, 50_000];
/** The memory lines of the last run, for `summarize` (rows carry one number each). */
let memorySummary: string[] = [];

function row(
  caseName: string,
  subject: string,
  ops: number,
  totalMs: number,
  peakRssMb: number,
  note?: string,
): BenchRow {
  return {
    suite: SUITE,
    case: caseName,
    subject,
    ops,
    totalMs,
    usPerOp: (totalMs * 1000) / ops,
    peakRssMb,
    ...(note ? { note } : {}),
  };
}

export const runnerSuite: BenchSuite = {
  name: SUITE,
  async run() {
    const rows: BenchRow[] = [];
    const through = `${N} items, 5 nodes, concurrency ${CONCURRENCY}`;
    // Alternated and repeated: the machine is shared, so each side gets its median of 3.
    const runner: Record<string, number>[] = [];
    const manual: Record<string, number>[] = [];
    for (let i = 0; i < 3; i++) {
      runner.push(await measureInWorker('runner', N, CONCURRENCY));
      manual.push(await measureInWorker('manual', N, CONCURRENCY));
    }
    const median = (runs: Record<string, number>[]) =>
      [...runs].sort((a, b) => a.ms! - b.ms!)[Math.floor(runs.length / 2)]!;
    const r = median(runner);
    const m = median(manual);
    rows.push(
      row(
        through,
        'runDataset (array input, results.jsonl)',
        N,
        r.ms!,
        r.maxRssMb!,
        `${((N * 1000) / r.ms!).toFixed(0)} items/s`,
      ),
      row(
        through,
        'by hand: Promise.all in batches of 64',
        N,
        m.ms!,
        m.maxRssMb!,
        `${((N * 1000) / m.ms!).toFixed(0)} items/s`,
      ),
    );
    const memory = await memoryBySize(SUITE, SIZES, CONCURRENCY, quick);
    rows.push(...memory.rows);
    memorySummary = memory.summary;
    const folder = tempFolder();
    writeInput(join(folder, 'input.jsonl'), N);
    await killWorkerAt('sqlite', N, CONCURRENCY, folder, N / 2);
    const resumed = await measureInWorker('sqlite', N, CONCURRENCY, folder);
    rmSync(folder, { recursive: true, force: true });
    rows.push(
      row(
        `resume after SIGKILL at 50% of ${N} (SQLite store)`,
        'rerun: time to the first new item',
        1,
        resumed.firstItemMs!,
        resumed.maxRssMb!,
        `${resumed.resumed} results kept, ${resumed.total} in all; ${resumed.firstItemSinceStartMs!.toFixed(0)} ms from process start; whole rerun ${(resumed.ms! / 1000).toFixed(1)} s`,
      ),
    );
    return rows;
  },
  summarize(rows) {
    const find = (subject: string) => rows.find((r) => r.subject.startsWith(subject));
    const runner = find('runDataset (array');
    const manual = find('by hand');
    const first = find('rerun');
    const lines: string[] = [];
    if (runner && manual) {
      const overhead = runner.usPerOp - manual.usPerOp;
      lines.push(
        `runner overhead: ${(overhead / 1000).toFixed(3)} ms per item (goal ≤ 0.2 ms): ${overhead <= 200 ? 'met' : 'NOT met'}`,
      );
    }
    lines.push(...memorySummary);
    if (first)
      lines.push(
        `first new item after resume: ${first.totalMs.toFixed(0)} ms (goal < 1 s): ${first.totalMs < 1000 ? 'met' : 'NOT met'}`,
      );
    return lines.join('\n');
  },
};
