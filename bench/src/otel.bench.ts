import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { InMemoryCheckpointStore, SkeinEngine } from '@skein/core';
import { instrumentSkein } from '@skein/otel';
import { loopWorkflow } from './engine-loop/loop-workflow.mjs';
import type { BenchRow } from './harness.js';
import { stepInstructionLines } from './otel/instruction-count.js';
import type { BenchSuite } from './suite.js';

// Issue 15's benchmark: what @skein/otel costs per engine step. The engine builds an event only
// when something listens, so an engine that was never instrumented, or was and is no longer,
// must run as fast as before (target: within 5%). Then the cost when tracing: a no-op tracer (the
// API without an SDK) and the SDK with an in-memory exporter (a span per node, exported at once).
// The cases take turns, round after round, so drift in the machine's speed hits them all alike;
// on a shared machine runs vary by 2x, so the fastest run of each case is compared too.

const SUITE = 'otel';
const quick = process.env.BENCH_QUICK === '1';
const ITERATIONS = quick ? 2_000 : 10_000;
const ROUNDS = quick ? 5 : 11;
// START, then `inc` and `check` per iteration, then END.
const STEPS = 2 * ITERATIONS + 2;

type Mode = 'none' | 'uninstrumented' | 'noop' | 'sdk';

const exporter = new InMemorySpanExporter();
const sdkTracer = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(exporter)],
}).getTracer('bench');
// No global provider is registered: this is the API's no-op tracer.
const noopTracer = trace.getTracer('bench');

const cases: { mode: Mode; subject: string; note?: string }[] = [
  { mode: 'none', subject: 'engine, never instrumented' },
  {
    mode: 'uninstrumented',
    subject: 'instrumentSkein then uninstrument()',
    note: 'target: within 5% of never instrumented',
  },
  { mode: 'noop', subject: 'instrumented, no-op tracer (no SDK)' },
  {
    mode: 'sdk',
    subject: 'instrumented, SDK + in-memory exporter',
    note: 'a span per node, SimpleSpanProcessor',
  },
];

function loopEngine(): SkeinEngine {
  const engine = new SkeinEngine({ store: new InMemoryCheckpointStore() });
  engine.registerWorkflow(loopWorkflow(ITERATIONS, true));
  return engine;
}

function prepared(mode: Mode): SkeinEngine {
  const engine = loopEngine();
  if (mode === 'uninstrumented') {
    instrumentSkein(engine).uninstrument();
    // What makes the 5% target hold: no listener is left, so the engine skips building events.
    if (engine.events.eventNames().length > 0) throw new Error('uninstrument() left listeners');
  } else if (mode === 'noop') instrumentSkein(engine, { tracer: noopTracer });
  else if (mode === 'sdk') instrumentSkein(engine, { tracer: sdkTracer });
  return engine;
}

async function timedRun(mode: Mode): Promise<number> {
  const engine = prepared(mode);
  exporter.reset();
  (globalThis as { gc?: () => void }).gc?.();
  const start = process.hrtime.bigint();
  const { result } = await engine.run('loop', { maxSteps: STEPS + 10 });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.output !== ITERATIONS) throw new Error(`loop ended at ${String(result.output)}`);
  if (mode === 'sdk' && exporter.getFinishedSpans().length !== STEPS + 1)
    throw new Error(`expected ${STEPS + 1} spans, got ${exporter.getFinishedSpans().length}`);
  return ms;
}

let pairedNote = '';
let instructionLines: string[] = [];

function fastest(values: readonly number[]): number {
  return Math.min(...values);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const otelSuite: BenchSuite = {
  name: SUITE,
  async run() {
    // Warm-up: two runs of every case, so V8 has optimised each path before anything is timed.
    for (let i = 0; i < 2; i++) for (const c of cases) await timedRun(c.mode);
    const times = new Map<Mode, number[]>(cases.map((c) => [c.mode, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // Every other round runs the cases backwards, so none of them always follows another.
      const order = round % 2 === 0 ? cases : [...cases].reverse();
      for (const c of order) times.get(c.mode)!.push(await timedRun(c.mode));
    }
    // Paired: the two runs of a round share the machine's load of that moment.
    const ratios = times.get('uninstrumented')!.map((ms, round) => ms / times.get('none')![round]!);
    const paired = (median(ratios) - 1) * 100;
    pairedNote = `paired: median of per-round ratios to never instrumented ${paired >= 0 ? '+' : ''}${paired.toFixed(1)}%`;
    instructionLines = await stepInstructionLines();
    return cases.flatMap((c): BenchRow[] =>
      (
        [
          ['median', median],
          ['fastest', fastest],
        ] as const
      ).map(([statistic, of]) => {
        const totalMs = of(times.get(c.mode)!);
        return {
          suite: SUITE,
          case: `loop ${ITERATIONS} (${STEPS} node steps), ${statistic} of ${ROUNDS}`,
          subject: c.subject,
          ops: STEPS,
          totalMs,
          usPerOp: (totalMs * 1000) / STEPS,
          ...(c.note
            ? { note: c.mode === 'uninstrumented' ? `${c.note}; ${pairedNote}` : c.note }
            : {}),
        };
      }),
    );
  },
  summarize(rows) {
    const lines: string[] = [];
    for (const statistic of ['median', 'fastest']) {
      const of = rows.filter((r) => r.case.includes(`${statistic} of`));
      const at = (subject: string) => of.find((r) => r.subject === subject);
      const none = at(cases[0]!.subject);
      if (!none) continue;
      for (const c of cases.slice(1)) {
        const row = at(c.subject);
        if (!row) continue;
        const change = (row.usPerOp / none.usPerOp - 1) * 100;
        const target =
          c.mode === 'uninstrumented' ? ` (target ≤ 5%: ${change <= 5 ? 'met' : 'NOT met'})` : '';
        lines.push(
          `${statistic}: ${c.subject}: ${row.usPerOp.toFixed(2)} µs per step, ${change >= 0 ? '+' : ''}${change.toFixed(1)}% against never instrumented (${none.usPerOp.toFixed(2)} µs)${target}.`,
        );
      }
    }
    if (pairedNote) lines.push(`uninstrument(): ${pairedNote} (target ≤ 5%).`);
    lines.push(...instructionLines);
    return lines.join('\n');
  },
};
