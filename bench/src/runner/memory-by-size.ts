import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchRow } from '../harness.js';
import { measureInWorker, tempFolder } from './spawn-worker.js';
import { writeInput } from './write-input.js';

type Figures = Record<string, number>;

/** One way of running the items, measured at every size. */
interface Subject {
  readonly label: string;
  readonly mode: 'file' | 'manual-file';
  readonly nodeFlags?: readonly string[];
  readonly repeats: number;
}

const GOAL = 1.2;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const mb = (value: number) => value.toFixed(0);
const list = (runs: readonly Figures[], field: string) =>
  runs.map((r) => r[field]!.toFixed(field === 'retainedHeapMb' ? 1 : 0)).join(' / ');

/**
 * Every subject at every size, each run in its own process; the sizes are interleaved across the
 * repeats so a burst of load on the shared machine hits one run of each, not all runs of one.
 */
async function measureAll(
  subject: Subject,
  sizes: readonly number[],
  concurrency: number,
): Promise<Map<number, Figures[]>> {
  const runs = new Map<number, Figures[]>(sizes.map((size) => [size, []]));
  for (let repeat = 0; repeat < subject.repeats; repeat++)
    for (const size of sizes) {
      // The input is written here, not in the measured process: writing 50,000 lines there
      // raised its floor by several MiB before the run began, and that is not the runner's.
      const folder = tempFolder();
      try {
        if (subject.mode === 'file') writeInput(join(folder, 'input.jsonl'), size);
        runs
          .get(size)!
          .push(await measureInWorker(subject.mode, size, concurrency, folder, subject.nodeFlags));
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    }
  return runs;
}

function ratioLine(label: string, first: Figures[], last: Figures[], field: string): string {
  const ratio = median(last.map((r) => r[field]!)) / median(first.map((r) => r[field]!));
  const paired = first.map((r, i) => (last[i]![field]! / r[field]!).toFixed(2)).join(' / ');
  return `${label}: ${ratio.toFixed(2)}× (per repeat: ${paired})`;
}

/**
 * Issue 16's memory figures: peak RSS at each size (the goal: the largest within 1.2× of the
 * smallest), with what explains it: the process's floor before the run, V8's peak old
 * generation, and the heap still used after a full GC at the last item (what is retained).
 */
export async function memoryBySize(
  suite: string,
  sizes: readonly number[],
  concurrency: number,
  quick: boolean,
): Promise<{ rows: BenchRow[]; summary: string[] }> {
  const repeats = quick ? 1 : 3;
  const subjects: Subject[] = [
    { label: 'runDataset (JSONL input)', mode: 'file', repeats },
    { label: 'by hand: Promise.all batches, no runner', mode: 'manual-file', repeats },
    // Not a fix (a library cannot set V8's flags): evidence that the growth is V8's young
    // generation, whose semi-spaces grow from 1 MiB towards 16 MiB as data survives scavenges, so
    // a short run ends before they are full and any long run fills them.
    {
      label: 'runDataset, young generation capped (--max-semi-space-size=8)',
      mode: 'file',
      nodeFlags: ['--max-semi-space-size=8'],
      repeats,
    },
  ];
  const rows: BenchRow[] = [];
  const summary: string[] = [];
  const smallest = sizes[0]!;
  const largest = sizes.at(-1)!;
  for (const subject of subjects) {
    const runs = await measureAll(subject, sizes, concurrency);
    for (const size of sizes) {
      const sized = runs.get(size)!;
      const ms = median(sized.map((r) => r.ms!));
      rows.push({
        suite,
        case: `memory by dataset size: ${subject.label}`,
        subject: `${size} items`,
        ops: size,
        totalMs: ms,
        usPerOp: (ms * 1000) / size,
        peakRssMb: median(sized.map((r) => r.maxRssMb!)),
        note:
          `peak RSS ${list(sized, 'maxRssMb')} MiB; before the run ${list(sized, 'baseRssMb')}; ` +
          `peak old space ${list(sized, 'peakOldSpaceMb')}; ` +
          `heap after GC at the last item ${list(sized, 'retainedHeapMb')}`,
      });
    }
    const first = runs.get(smallest)!;
    const middle = runs.get(sizes[1] ?? smallest)!;
    const last = runs.get(largest)!;
    const rss = median(last.map((r) => r.maxRssMb!)) / median(first.map((r) => r.maxRssMb!));
    summary.push(
      `${subject.label}, ${largest} vs ${smallest} items:`,
      `  ${ratioLine('peak RSS', first, last, 'maxRssMb')}${subject.mode === 'file' && !subject.nodeFlags ? ` (goal ≤ ${GOAL}×): ${rss <= GOAL ? 'met' : 'NOT met'}` : ''}`,
      `  ${ratioLine(`peak RSS, ${largest} vs ${sizes[1] ?? smallest} items`, middle, last, 'maxRssMb')}`,
      `  ${ratioLine('heap after GC at the last item (retained)', first, last, 'retainedHeapMb')}`,
      `  ${ratioLine('peak old space (garbage awaiting a GC included)', first, last, 'peakOldSpaceMb')}`,
      `  peak RSS above the process's floor: ${sizes
        .map((size) => {
          const sized = runs.get(size)!;
          return `${size}: ${mb(median(sized.map((r) => r.maxRssMb! - r.baseRssMb!)))} MiB`;
        })
        .join(', ')}; ${timesLine(runs, sizes)}`,
    );
  }
  return { rows, summary };
}

function timesLine(runs: Map<number, Figures[]>, sizes: readonly number[]): string {
  return `time ${sizes.map((size) => `${(median(runs.get(size)!.map((r) => r.ms!)) / 1000).toFixed(1)} s`).join(' / ')}`;
}
