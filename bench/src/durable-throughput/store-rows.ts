import { loadavg } from 'node:os';
import type { CheckpointStore } from '@skein/core';
import type { BenchRow } from '../harness.js';
import { langGraphThreadsAtOnce } from './langgraph-steps.js';
import { modelStepsEngine, nodesPerThread, runThreadsAtOnce } from './model-steps.js';

// The rows both durable suites measure on a store: many threads waiting on a model at once,
// saturation (no model wait), and one long thread. START, then STEPS x (LLM waiting DELAY_MS,
// VARIABLE, ROUTE), END: 32 checkpoints a thread; the ideal is STEPS x DELAY_MS however many
// threads.

export const STEPS = 10;
export const DELAY_MS = 50;
export const IDEAL_MS = STEPS * DELAY_MS;
const RUNS = process.env.BENCH_QUICK === '1' ? 1 : 3;
const LONG_ROUNDS = 666; // 3 x 666 + 2 = 2,000 nodes
const THREAD_COUNTS = [200, 1_000];

export type OpenStore = (
  name: string,
) => Promise<{ store: CheckpointStore; close(): Promise<void> }>;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function load(): string {
  return `load ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`;
}

export function row(
  suite: string,
  subject: string,
  caseName: string,
  ops: number,
  ms: number,
  note: string,
): BenchRow {
  return { suite, case: caseName, subject, ops, totalMs: ms, usPerOp: (ms * 1000) / ops, note };
}

/**
 * `runs` measured runs, after one that warms the JIT unless `warm` says it is warm already; the
 * median wall time and every run's.
 */
async function measured(runs: number, once: (run: number) => Promise<number>, warm = false) {
  const times: number[] = [];
  for (let r = warm ? 1 : 0; r < runs + 1; r++) {
    const ms = await once(r);
    if (r > 0) times.push(ms);
  }
  return { ms: median(times), all: times };
}

/** `runs` fresh stores, `threads` at once; the median wall time and every run's. */
function atOnce(open: OpenStore, threads: number, delayMs: number, runs: number) {
  return measured(runs, async (r) => {
    const { store, close } = await open(`r${threads}_${delayMs}_${r}`);
    try {
      return await runThreadsAtOnce(modelStepsEngine(store, STEPS, delayMs), 'p', threads, STEPS);
    } finally {
      await close();
    }
  });
}

/** The row of `threads` threads at once: the median, its ratio to the ideal, every run. */
function threadsRow(
  suite: string,
  subject: string,
  threads: number,
  { ms, all }: { ms: number; all: number[] },
): BenchRow {
  return row(
    suite,
    subject,
    `${threads} threads x ${STEPS} steps x ${DELAY_MS} ms`,
    threads * nodesPerThread(STEPS),
    ms,
    `${(ms / IDEAL_MS).toFixed(2)}x ideal (${IDEAL_MS} ms); runs ${all.map((t) => t.toFixed(0)).join(', ')} ms; ${load()}`,
  );
}

/**
 * The same threads in LangGraph on its in-memory checkpointer (see langgraph-steps.ts). 1,000 of
 * them take LangGraph about a minute a run on the 2-core machine: that row is one run, after the
 * 200-thread runs have warmed the JIT.
 */
export async function langGraphRows(suite: string, subject: string): Promise<BenchRow[]> {
  const at = (threads: number) => () => langGraphThreadsAtOnce(threads, STEPS, DELAY_MS);
  return [
    threadsRow(suite, subject, 200, await measured(RUNS, at(200))),
    threadsRow(suite, subject, 1_000, await measured(1, at(1_000), true)),
  ];
}

export async function storeRows(
  suite: string,
  subject: string,
  open: OpenStore,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const threads of THREAD_COUNTS)
    rows.push(threadsRow(suite, subject, threads, await atOnce(open, threads, DELAY_MS, RUNS)));
  const saturated = await atOnce(open, 200, 0, RUNS);
  const checkpoints = 200 * nodesPerThread(STEPS);
  rows.push(
    row(
      suite,
      subject,
      'saturation: 200 threads x 10 steps, no model wait',
      checkpoints,
      saturated.ms,
      `${((checkpoints * 1000) / saturated.ms).toFixed(0)} durable node steps/s; ${load()}`,
    ),
  );
  const { store, close } = await open('long');
  try {
    const engine = modelStepsEngine(store, LONG_ROUNDS, 0);
    await runThreadsAtOnce(engine, 'warm-long', 1, LONG_ROUNDS);
    const ms = await runThreadsAtOnce(engine, 'long', 1, LONG_ROUNDS);
    const nodes = nodesPerThread(LONG_ROUNDS);
    rows.push(
      row(
        suite,
        subject,
        `one thread, ${nodes.toLocaleString('en')} steps`,
        nodes,
        ms,
        `${(ms / nodes).toFixed(3)} ms per step; ${load()}`,
      ),
    );
  } finally {
    await close();
  }
  return rows;
}

export function floorRows(
  suite: string,
  subject: string,
  rows: number,
  floor: { single: number; batched: number },
): BenchRow[] {
  return [
    row(
      suite,
      subject,
      'floor: single-row commits',
      rows,
      floor.single,
      `${((rows * 1000) / floor.single).toFixed(0)} commits/s, one row each`,
    ),
    row(
      suite,
      subject,
      'floor: batched commits (200 rows)',
      rows,
      floor.batched,
      `${((rows * 1000) / floor.batched).toFixed(0)} rows/s`,
    ),
  ];
}
