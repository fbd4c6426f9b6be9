/** A measured case: one row of a benchmark table. */
export interface BenchRow {
  readonly suite: string;
  readonly case: string;
  /** What was measured, e.g. "Skein addMessage" or "LangGraph messagesStateReducer". */
  readonly subject: string;
  /** Units of work per run (messages appended, chunks fed, steps taken…). */
  readonly ops: number;
  readonly totalMs: number;
  /** totalMs * 1000 / ops */
  readonly usPerOp: number;
  readonly peakRssMb?: number;
  readonly note?: string;
}

export interface MeasureOptions {
  /** Runs before measuring (JIT warm-up); default 1. */
  readonly warmup?: number;
  /** Measured runs; the median is reported. Default 5. */
  readonly runs?: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) gc();
}

/**
 * Times `fn` (which performs `ops` units of work and may be async) and returns the median run.
 * A fresh `setup()` result is passed to each run so state does not carry between runs.
 */
export async function measure<S>(
  row: { suite: string; case: string; subject: string; ops: number; note?: string },
  setup: () => S | Promise<S>,
  fn: (state: S) => unknown,
  options: MeasureOptions = {},
): Promise<BenchRow> {
  const warmup = options.warmup ?? 1;
  const runs = options.runs ?? 5;
  for (let i = 0; i < warmup; i++) await fn(await setup());
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const state = await setup();
    collectGarbage();
    const start = process.hrtime.bigint();
    await fn(state);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const totalMs = median(times);
  return { ...row, totalMs, usPerOp: (totalMs * 1000) / row.ops };
}

/** Formats rows as a Markdown table (what bench/README.md and closing notes carry). */
export function toMarkdown(rows: readonly BenchRow[]): string {
  const header =
    '| suite | case | subject | ops | total ms | µs/op | peak RSS MB | note |\n|---|---|---|---:|---:|---:|---:|---|';
  const lines = rows.map(
    (r) =>
      `| ${r.suite} | ${r.case} | ${r.subject} | ${r.ops} | ${r.totalMs.toFixed(2)} | ${formatUs(r.usPerOp)} | ${r.peakRssMb === undefined ? '' : r.peakRssMb.toFixed(0)} | ${r.note ?? ''} |`,
  );
  return [header, ...lines].join('\n');
}

function formatUs(us: number): string {
  if (us >= 100) return us.toFixed(0);
  if (us >= 1) return us.toFixed(2);
  return us.toFixed(4);
}
