import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { BenchRow } from './harness.js';
import type { BenchSuite } from './suite.js';

// Issue 3's benchmark: a 10,000-iteration counter loop on Skein (checkpoints on, in memory),
// LangGraph.js, Mastra and a plain async loop; and 1,000 concurrent threads of a 20-step
// workflow. Every subject runs in its own process so peak RSS is its own.

const SUITE = 'engine';
const run = promisify(execFile);
const worker = fileURLToPath(new URL('./engine-loop/loop-worker.ts', import.meta.url));
const quick = process.env.BENCH_QUICK === '1';

async function measureWorker(
  subject: string,
  n: number,
  withMessage: boolean,
  warmup: number,
): Promise<{ ms: number; maxRssMb: number }> {
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', worker, subject, String(n), withMessage ? '1' : '0', String(warmup)],
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
    for (const c of loops) {
      const { ms, maxRssMb } = await measureWorker(c.subject, c.n, c.withMessage, c.warmup);
      rows.push({
        suite: SUITE,
        case: `loop ${c.n}`,
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
    const at = (subject: string, n: number) =>
      rows.find((r) => r.subject.startsWith(subject) && r.ops === n);
    const skein = at('Skein', 10_000);
    const lines: string[] = [];
    if (skein) {
      lines.push(
        `Skein: ${skein.usPerOp.toFixed(2)} µs per loop iteration at 10k (target ≤ 10 µs: ${skein.usPerOp <= 10 ? 'met' : 'NOT met'}).`,
      );
      const mid = at('Skein', 50_000);
      const big = at('Skein', 100_000);
      if (mid && big)
        lines.push(
          `Constant as the thread grows: ${skein.usPerOp.toFixed(2)} µs per iteration at 10k, ${mid.usPerOp.toFixed(2)} at 50k, ${big.usPerOp.toFixed(2)} at 100k (each after two warm-up runs of 10k).`,
        );
      for (const peer of [
        'LangGraph StateGraph, counter + message',
        'LangGraph StateGraph, counter',
        'Mastra 0.24 dountil',
        'plain async loop',
      ]) {
        const row = rows.find((r) => r.subject === peer);
        if (row)
          lines.push(
            `${peer}: ${row.usPerOp.toFixed(2)} µs/iteration (${(row.usPerOp / skein.usPerOp).toFixed(1)}x Skein's).`,
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
