import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { BenchRow } from './harness.js';
import type { BenchSuite } from './suite.js';

// Issue 13's benchmarks. (1) A fan-out of N items through a trivial node (value x 2) and a join,
// results checked in item order: Skein MAP (a branch thread per item, each checkpointed in an
// in-memory store), LangGraph `Send` map-reduce, Mastra `.foreach(step, { concurrency: 100 })`
// and `Promise.all`. (2) 100 MAP branches each calling the scripted model (20 ms), at
// maxConcurrency 10 and 100, against the ideal wall time. Each subject runs in its own process,
// built once as an app builds it, after a warm-up, several measured runs each: the best and the median are reported, with the
// machine's load average, since other work shares this machine's cores.

const SUITE = 'fan-out';
const execFileAsync = promisify(execFile);
const worker = fileURLToPath(new URL('./fan-out/fan-out-worker.ts', import.meta.url));
const quick = process.env.BENCH_QUICK === '1';
const WARMUP = 200;
/** A subject that has not finished by then is reported as timed out (LangGraph at 10k: ~2 min). */
const TIMEOUT_S = Number(process.env.BENCH_FANOUT_TIMEOUT_S ?? 240);
const LLM_BRANCHES = 100;
const LLM_DELAY_MS = 20;

interface WorkerResult {
  readonly times: number[];
  readonly cpuTimes: number[];
  readonly maxRssMb: number;
}

type Outcome = WorkerResult | { readonly timedOutAfterS: number };

async function runWorker(
  subject: string,
  n: number,
  warmup: number,
  runs: number,
  concurrency = 100,
): Promise<Outcome> {
  try {
    const { stdout } = await execFileAsync(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        worker,
        subject,
        String(n),
        String(warmup),
        String(runs),
        String(concurrency),
      ],
      { maxBuffer: 1 << 20, timeout: TIMEOUT_S * 1000, killSignal: 'SIGKILL' },
    );
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as WorkerResult;
  } catch (error) {
    if ((error as { killed?: boolean }).killed) return { timedOutAfterS: TIMEOUT_S };
    throw error;
  }
}

function sorted(values: readonly number[]): number[] {
  return [...values].sort((a, b) => a - b);
}

function median(values: readonly number[]): number {
  const s = sorted(values);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const fmt = (us: number) => (us >= 100 ? us.toFixed(0) : us >= 1 ? us.toFixed(1) : us.toFixed(2));

function row(
  caseName: string,
  subject: string,
  ops: number,
  outcome: Outcome,
  extra = '',
): BenchRow {
  if ('timedOutAfterS' in outcome) {
    const ms = outcome.timedOutAfterS * 1000;
    return {
      suite: SUITE,
      case: caseName,
      subject,
      ops,
      totalMs: ms,
      usPerOp: (ms * 1000) / ops,
      note: `timed out after ${outcome.timedOutAfterS} s (µs/op is a lower bound)`,
    };
  }
  const best = sorted(outcome.times)[0]!;
  const bestCpu = sorted(outcome.cpuTimes)[0]!;
  const totalMs = median(outcome.times);
  return {
    suite: SUITE,
    case: caseName,
    subject,
    ops,
    totalMs,
    usPerOp: (totalMs * 1000) / ops,
    peakRssMb: outcome.maxRssMb,
    note: `median of ${outcome.times.length}; best ${fmt((best * 1000) / ops)} µs/op, best CPU ${fmt((bestCpu * 1000) / ops)} µs/op${extra}`,
  };
}

const SUBJECTS = [
  { id: 'skein', label: 'Skein MAP (branch thread + checkpoint per item, in memory)' },
  { id: 'mastra', label: 'Mastra 0.24 .foreach (concurrency 100)' },
  { id: 'langgraph', label: 'LangGraph Send map-reduce (concat reducer)' },
  { id: 'plain', label: 'Promise.all' },
] as const;

let loads: string[] = [];

function load(when: string): void {
  loads.push(
    `${when} ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' / ')}`,
  );
}

export const fanOutSuite: BenchSuite = {
  name: SUITE,
  async run() {
    loads = [];
    load('start');
    const rows: BenchRow[] = [];
    for (const n of quick ? [1_000] : [1_000, 10_000])
      for (const s of SUBJECTS) {
        const runs = s.id === 'langgraph' ? (n >= 10_000 ? 1 : 2) : 5;
        rows.push(row(`fan-out ${n}`, s.label, n, await runWorker(s.id, n, WARMUP, runs)));
        load(`after ${s.id} ${n}:`);
      }
    for (const concurrency of [10, 100]) {
      const ideal = (Math.ceil(LLM_BRANCHES / concurrency) * LLM_DELAY_MS).toFixed(0);
      const outcome = await runWorker('skein-llm', LLM_BRANCHES, LLM_BRANCHES, 5, concurrency);
      rows.push(
        row(
          `${LLM_BRANCHES} LLM branches, maxConcurrency ${concurrency}`,
          `Skein MAP + ScriptedLLMClient (${LLM_DELAY_MS} ms per call)`,
          LLM_BRANCHES,
          outcome,
          `; ideal ${ideal} ms`,
        ),
      );
    }
    load('end');
    return rows;
  },
  summarize(rows) {
    const lines: string[] = [`Load average (1 / 5 / 15 min, 2 cores): ${loads.join('; ')}.`];
    const bestUs = (r: BenchRow) => Number(/best ([\d.]+) µs/.exec(r.note ?? '')?.[1] ?? r.usPerOp);
    for (const n of [1_000, 10_000]) {
      const of = rows.filter((r) => r.case === `fan-out ${n}`);
      const skein = of.find((r) => r.subject.startsWith('Skein'));
      if (!skein) continue;
      lines.push(
        `fan-out ${n}: Skein ${fmt(skein.usPerOp)} µs/item median, ${fmt(bestUs(skein))} best.`,
      );
      for (const peer of of.filter((r) => r !== skein)) {
        const timedOut = peer.note?.startsWith('timed out') ? ' (peer timed out: at least)' : '';
        const times = peer.usPerOp / skein.usPerOp;
        // The limits at 10k: ≥ 2x Mastra's .foreach, ≥ 300x LangGraph's Send (judged on medians).
        const limit =
          n === 10_000
            ? peer.subject.startsWith('Mastra')
              ? 2
              : peer.subject.startsWith('LangGraph')
                ? 300
                : 0
            : 0;
        const goal =
          limit > 0 ? ` (limit ≥ ${limit}x: ${times >= limit ? 'kept' : 'NOT kept'})` : '';
        lines.push(
          `fan-out ${n}: ${peer.subject}: ${fmt(peer.usPerOp)} µs/item, ${times.toFixed(2)}x Skein's median${goal}; Skein/peer ${(bestUs(skein) / bestUs(peer)).toFixed(3)} best${timedOut}.`,
        );
      }
    }
    for (const r of rows.filter((x) => x.case.includes('LLM branches'))) {
      const ideal = Number(/ideal (\d+) ms/.exec(r.note ?? '')?.[1]);
      const best = (bestUs(r) * r.ops) / 1000;
      const ratio = best / ideal;
      lines.push(
        `${r.case}: ${r.totalMs.toFixed(1)} ms median, ${best.toFixed(1)} ms best vs ideal ${ideal} ms: ${(r.totalMs / ideal).toFixed(2)}x median, ${ratio.toFixed(2)}x best (goal ≤ 1.3x, judged on the median: ${r.totalMs / ideal <= 1.3 ? 'met' : 'NOT met'}).`,
      );
    }
    return lines.join('\n');
  },
};
