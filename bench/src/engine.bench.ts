import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { BenchRow } from './harness.js';
import type { BenchSuite } from './suite.js';

// Issue 3's benchmark: a 10,000-iteration counter loop on Skein (checkpoints on, in memory),
// LangGraph.js, Mastra and a plain async loop; and 1,000 concurrent threads of a 20-step
// workflow. Every subject runs in its own process so peak RSS is its own.
// Two methods: warm (two warm-up runs of up to 10k iterations, V8 has optimised everything) and
// cold (issue 12: one warm-up run of 200 iterations, then one measured run), which is what a
// thread in a fresh server process pays.

const SUITE = 'engine';
const run = promisify(execFile);
const worker = fileURLToPath(new URL('./engine-loop/loop-worker.ts', import.meta.url));
const quick = process.env.BENCH_QUICK === '1';

const COLD_WARMUP = 200;
/** Not a peer: the same loop with no store, so every run shows what checkpoints cost cold. */
const NO_STORE = 'Reference: the Skein loop without a checkpoint store';

async function measureWorker(
  subject: string,
  n: number,
  withMessage: boolean,
  warmup: number,
  warmRuns = 2,
): Promise<{ ms: number; maxRssMb: number }> {
  const { stdout } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      worker,
      subject,
      String(n),
      withMessage ? '1' : '0',
      String(warmup),
      String(warmRuns),
    ],
    { maxBuffer: 1 << 20, timeout: 30 * 60_000 },
  );
  const last = stdout.trim().split('\n').at(-1)!;
  return JSON.parse(last) as { ms: number; maxRssMb: number };
}

interface Case {
  subject: string;
  label: string;
  n: number;
  withMessage: boolean;
  warmup: number;
  note?: string;
}

/** The cold method: the same loops after one 200-iteration warm-up run each. */
const coldLoops: Case[] = [
  ...[10_000, 100_000].map((n) => ({
    subject: 'skein',
    label: 'Skein (VARIABLE + ROUTE, checkpoint per node)',
    n,
    withMessage: true,
    warmup: COLD_WARMUP,
    note: 'cold: 2 nodes and 2 checkpoints per iteration',
  })),
  {
    subject: 'skein-no-store',
    label: NO_STORE,
    n: 10_000,
    withMessage: true,
    warmup: COLD_WARMUP,
    note: 'cold: no checkpoints (not the benchmark; the share checkpoints take)',
  },
  {
    subject: 'mastra',
    label: 'Mastra 0.24 dountil',
    n: 10_000,
    withMessage: false,
    warmup: COLD_WARMUP,
    note: 'cold: counter only, no conversation',
  },
  {
    subject: 'langgraph',
    label: 'LangGraph StateGraph, counter',
    n: 10_000,
    withMessage: false,
    warmup: COLD_WARMUP,
    note: 'cold',
  },
  {
    subject: 'langgraph',
    label: 'LangGraph StateGraph, counter + message',
    n: quick ? 2_000 : 10_000,
    withMessage: true,
    warmup: COLD_WARMUP,
    note: 'cold',
  },
];

const loops: Case[] = [
  ...[10_000, 50_000, 100_000].map((n) => ({
    subject: 'skein',
    label: 'Skein (VARIABLE + ROUTE, checkpoint per node)',
    n,
    withMessage: true,
    warmup: Math.min(n, 10_000),
    note: '2 nodes and 2 checkpoints per iteration',
  })),
  { subject: 'plain', label: 'plain async loop', n: 10_000, withMessage: true, warmup: 10_000 },
  {
    subject: 'mastra',
    label: 'Mastra 0.24 dountil',
    n: 10_000,
    withMessage: false,
    warmup: 1_000,
    note: 'counter only: no conversation',
  },
  {
    subject: 'langgraph',
    label: 'LangGraph StateGraph, counter',
    n: 10_000,
    withMessage: false,
    warmup: 500,
  },
  {
    subject: 'langgraph',
    label: 'LangGraph StateGraph, counter + message',
    n: quick ? 2_000 : 10_000,
    withMessage: true,
    warmup: 1_000,
    note: 'messagesStateReducer copies the history per step',
  },
];

export const engineSuite: BenchSuite = {
  name: SUITE,
  async run() {
    const rows: BenchRow[] = [];
    for (const [method, cases, warmRuns] of [
      ['warm', loops, 2],
      ['cold', coldLoops, 1],
    ] as const)
      for (const c of cases) {
        const { ms, maxRssMb } = await measureWorker(
          c.subject,
          c.n,
          c.withMessage,
          c.warmup,
          warmRuns,
        );
        rows.push({
          suite: SUITE,
          case: `${method} loop ${c.n}`,
          subject: c.label,
          ops: c.n,
          totalMs: ms,
          usPerOp: (ms * 1000) / c.n,
          peakRssMb: maxRssMb,
          ...(c.note ? { note: c.note } : {}),
        });
      }
    const threads = 1_000;
    const { ms, maxRssMb } = await measureWorker('skein-threads', threads, false, 100);
    rows.push({
      suite: SUITE,
      case: `${threads} concurrent threads x 21 steps`,
      subject: 'Skein + ScriptedLLMClient, checkpoints in memory',
      ops: threads,
      totalMs: ms,
      usPerOp: (ms * 1000) / threads,
      peakRssMb: maxRssMb,
      note: `${((threads * 1000) / ms).toFixed(0)} threads/s`,
    });
    return rows;
  },
  summarize(rows) {
    const lines: string[] = [];
    for (const method of ['warm', 'cold'] as const) {
      const of = rows.filter((r) => r.case.startsWith(`${method} `));
      const at = (subject: string, n: number) =>
        of.find((r) => r.subject.startsWith(subject) && r.ops === n);
      const skein = at('Skein', 10_000);
      if (!skein) continue;
      lines.push(`${method}: Skein ${skein.usPerOp.toFixed(2)} µs per loop iteration at 10k.`);
      const sizes = [50_000, 100_000]
        .map((n) => at('Skein', n))
        .filter((r) => r !== undefined)
        .map((r) => `${r.usPerOp.toFixed(2)} at ${r.ops / 1000}k`);
      if (sizes.length > 0)
        lines.push(
          `${method}: constant as the thread grows: ${skein.usPerOp.toFixed(2)} µs per iteration at 10k, ${sizes.join(', ')}.`,
        );
      for (const peer of [
        'LangGraph StateGraph, counter + message',
        'LangGraph StateGraph, counter',
        'Mastra 0.24 dountil',
        'plain async loop',
        NO_STORE,
      ]) {
        const row = of.find((r) => r.subject === peer);
        if (!row) continue;
        const ratio = row.usPerOp / skein.usPerOp;
        // The limits the engine must keep (a user feels neither cold nor warm past them).
        const limit = method === 'warm' ? 6 : 3;
        const goal = peer.startsWith('Mastra')
          ? ` (limit ≥ ${limit}x: ${ratio >= limit ? 'kept' : 'NOT kept'})`
          : '';
        lines.push(
          `${method}: ${peer}: ${row.usPerOp.toFixed(2)} µs/iteration (${ratio.toFixed(1)}x Skein's)${goal}.`,
        );
      }
    }
    const threads = rows.find((r) => r.case.includes('concurrent'));
    if (threads)
      lines.push(
        `1,000 concurrent 21-step threads: ${threads.note}, peak RSS ${threads.peakRssMb?.toFixed(0)} MB.`,
      );
    return lines.join('\n');
  },
};
