import { execFile, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

// The otel suite's second opinion, opt in with BENCH_INSTRUCTIONS=1 (it takes about six minutes):
// instructions per engine step counted by valgrind's callgrind, never instrumented against
// instrumented-then-uninstrumented. Each mode runs a short and a long loop; the difference over
// the extra steps is the loop's own cost. Each long run is repeated to show the spread.

const execFileAsync = promisify(execFile);
const worker = fileURLToPath(new URL('./step-count-worker.mjs', import.meta.url));
const SHORT = 1_000;
const LONG = 21_000;
// START, then `inc` and `check` per iteration, then END.
const EXTRA_STEPS = 2 * (LONG - SHORT);
// Settings that take randomness out of V8 (hash seeds, GC timing, background compilation).
const NODE_FLAGS = [
  '--single-threaded',
  '--hash-seed=1',
  '--random-seed=1',
  '--predictable-gc-schedule',
];

type Mode = 'none' | 'uninstrumented';

function valgrindFound(): boolean {
  return spawnSync('valgrind', ['--version']).status === 0;
}

async function instructions(mode: Mode, iterations: number): Promise<number> {
  const { stderr } = await execFileAsync(
    'valgrind',
    [
      '--tool=callgrind',
      '--callgrind-out-file=/dev/null',
      process.execPath,
      ...NODE_FLAGS,
      worker,
      mode,
      String(iterations),
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const found = /Collected\s*:\s*(\d+)/.exec(stderr);
  if (!found) throw new Error(`callgrind printed no instruction count:\n${stderr}`);
  return Number(found[1]);
}

/** Runs the jobs two at a time (the machine has two cores). */
async function inPairs<T>(jobs: readonly (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < jobs.length; i += 2)
    out.push(...(await Promise.all(jobs.slice(i, i + 2).map((job) => job()))));
  return out;
}

/** Summary lines, or why there are none. */
export async function stepInstructionLines(): Promise<string[]> {
  if (process.env.BENCH_INSTRUCTIONS !== '1')
    return ['Instruction counts: skipped (set BENCH_INSTRUCTIONS=1; needs valgrind).'];
  if (!valgrindFound()) return ['Instruction counts: skipped (valgrind not found).'];
  const modes: Mode[] = ['none', 'uninstrumented'];
  const [shortNone, shortOff, ...long] = await inPairs([
    () => instructions('none', SHORT),
    () => instructions('uninstrumented', SHORT),
    ...modes.flatMap((mode) => [() => instructions(mode, LONG), () => instructions(mode, LONG)]),
  ]);
  const perStep = (base: number, total: number) => (total - base) / EXTRA_STEPS;
  const none = [perStep(shortNone!, long[0]!), perStep(shortNone!, long[1]!)];
  const off = [perStep(shortOff!, long[2]!), perStep(shortOff!, long[3]!)];
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const change = (mean(off) / mean(none) - 1) * 100;
  const spread = (Math.abs(none[0]! - none[1]!) / mean(none)) * 100;
  const k = (x: number) => `${(x / 1000).toFixed(1)}k`;
  return [
    `Instructions per engine step (callgrind, ${EXTRA_STEPS} steps): never instrumented ${none.map(k).join(' / ')}, instrumentSkein then uninstrument() ${off.map(k).join(' / ')}: ${change >= 0 ? '+' : ''}${change.toFixed(1)}% (target ≤ 5%: ${change <= 5 ? 'met' : 'NOT met'}); two runs of the same mode differ by ${spread.toFixed(1)}%.`,
  ];
}
