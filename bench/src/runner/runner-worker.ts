// One measurement in its own process (so peak RSS is its own); prints one JSON line.
// node --import tsx runner-worker.ts <mode> <n> <concurrency> <folder> (the bench runs it compiled,
// with plain node: see compiled-worker.ts)
//   runner: runDataset over an array of n items (after a 1,000-item warm-up run)
//   manual: the same threads with Promise.all in batches of <concurrency> (same warm-up)
//   scored: as runner, each item also scored by two code scorers into scores.jsonl
//   (runner and scored take a 5th argument, rounds: the measured run is made that many times,
//   and the medians of wall and CPU time are printed)
//   file:   runDataset over <folder>/input.jsonl, n items (no warm-up; for memory by size;
//           the parent writes the file, or the worker does when it is missing)
//   manual-file: the by-hand loop over n items, measured the same way (no runner)
//   sqlite: runDataset over a JSONL file with the SQLite store, printing "done <k>" per item
//           (killed by the parent, then run again to time the first new item)
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { runDataset } from '@skein/runner';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { codeScorers } from './code-scorers.js';
import { fiveNodeEngine } from './five-node-engine.js';
import { MemoryProbe } from './memory-probe.js';
import { writeInput } from './write-input.js';

const [mode, nArg, concurrencyArg, folder] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
];
const n = Number(nArg);
const concurrency = Number(concurrencyArg);
const items = (k: number, tag: string) => Array.from({ length: k }, (_, i) => `${tag} ${i}`);
const threadOptions = (item: unknown) => ({ input: (item as { q?: string }).q ?? String(item) });

async function viaRunner(k: number, tag: string, scored = false): Promise<void> {
  const { engine, forget } = fiveNodeEngine();
  await runDataset({
    engine,
    workflowId: 'five',
    input: items(k, tag),
    output: join(folder, tag),
    runId: tag,
    concurrency,
    threadOptions,
    onProgress: forget,
    ...(scored ? { scorers: codeScorers() } : {}),
  });
}

async function byHand(k: number, tag: string, atLastBatch?: () => void): Promise<void> {
  const { engine, forget } = fiveNodeEngine();
  const all = items(k, tag);
  for (let i = 0; i < all.length; i += concurrency) {
    const batch = all.slice(i, i + concurrency);
    const runs = await Promise.all(
      batch.map((item, j) => engine.run('five', { input: item, threadId: `${tag}/${i + j}` })),
    );
    for (const { result } of runs) if (result.status !== 'COMPLETED') throw new Error('failed');
    forget();
    if (i + concurrency >= all.length) atLastBatch?.();
  }
}

function report(fields: object): void {
  process.stdout.write(
    `${JSON.stringify({ ...fields, maxRssMb: process.resourceUsage().maxRSS / 1024 })}\n`,
  );
}

async function main(): Promise<void> {
  if (mode === 'runner' || mode === 'manual' || mode === 'scored') {
    const run =
      mode === 'manual' ? byHand : (k: number, tag: string) => viaRunner(k, tag, mode === 'scored');
    await run(1_000, 'warm');
    const rounds = Number(process.argv[6] ?? 1);
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let round = 0; round < rounds; round++) {
      // Between rounds, a full GC, so one round's garbage is not collected in the next.
      if (round > 0) (globalThis as { gc?: () => void }).gc?.();
      const used = process.cpuUsage();
      const start = performance.now();
      await run(n, `measured-${round}`);
      wall.push(performance.now() - start);
      const { user, system } = process.cpuUsage(used);
      cpu.push((user + system) / 1000);
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
    report({ ms: median(wall), cpuMs: median(cpu) });
    return;
  }
  if (mode === 'file') {
    // The parent writes the input (memory-by-size.ts): making 50,000 lines here raised this
    // process's floor by several MiB before the run began. Written here only when run by hand.
    const input = join(folder, 'input.jsonl');
    if (!existsSync(input)) writeInput(input, n);
    const { engine, forget } = fiveNodeEngine();
    const probe = new MemoryProbe();
    const start = performance.now();
    await runDataset({
      engine,
      workflowId: 'five',
      input,
      itemId: 'id',
      threadOptions,
      output: join(folder, 'run'),
      runId: 'file',
      concurrency,
      onProgress: (p) => {
        forget();
        // Inside the run: its sets, summary and writer are all still reachable here.
        if (p.done === n) probe.measureRetained();
      },
    });
    const ms = performance.now() - start;
    report({ ms, ...probe.stop() });
    return;
  }
  if (mode === 'sqlite') {
    const input = join(folder, 'input.jsonl');
    const store = new SqliteCheckpointStore({ filename: join(folder, 'threads.db') });
    const { engine, forget } = fiveNodeEngine(store);
    const start = performance.now();
    let first: number | undefined;
    const summary = await runDataset({
      engine,
      workflowId: 'five',
      input,
      itemId: 'id',
      threadOptions,
      output: join(folder, 'run'),
      runId: 'resume',
      concurrency,
      onProgress: (p) => {
        if (first === undefined) first = performance.now();
        forget();
        process.stdout.write(`done ${p.done}\n`);
      },
    });
    store.close();
    report({
      ms: performance.now() - start,
      firstItemMs: (first ?? Number.NaN) - start,
      // performance.now() counts from process start: module loading included.
      firstItemSinceStartMs: first ?? Number.NaN,
      resumed: summary.resumed,
      total: summary.items.total,
    });
    return;
  }
  if (mode === 'manual-file') {
    // The by-hand loop over the same number of items, for the memory comparison.
    const probe = new MemoryProbe();
    const start = performance.now();
    await byHand(n, 'sizes', () => probe.measureRetained());
    const ms = performance.now() - start;
    report({ ms, ...probe.stop() });
    return;
  }
  throw new Error(`unknown mode ${mode}`);
}

await main();
