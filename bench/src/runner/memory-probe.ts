import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';

/** What one process's memory did during a measured run, in MiB (getrusage's unit). */
export interface MemoryFigures {
  /** RSS before the run, once modules are loaded and the input written: the process's floor. */
  readonly baseRssMb: number;
  /** Peak RSS of the whole process (getrusage), the figure issue 16's goal is about. */
  readonly maxRssMb: number;
  /** Peak heap V8 had reserved, and its old generation alone: where garbage waits for a GC. */
  readonly peakHeapTotalMb: number;
  readonly peakOldSpaceMb: number;
  /** Heap still used after a full GC at the last item, while the run's state is still live. */
  readonly retainedHeapMb: number;
}

const MB = 2 ** 20;

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('run the worker with --expose-gc');
  collect();
}

/**
 * Samples the heap every few milliseconds (peaks between samples can be missed; the RSS peak
 * comes from the kernel and cannot) and measures the retained heap on request.
 */
export class MemoryProbe {
  readonly #baseRss: number;
  #peakHeapTotal = 0;
  #peakOldSpace = 0;
  #retained = Number.NaN;
  readonly #timer: NodeJS.Timeout;

  constructor(everyMs = 10) {
    gc();
    this.#baseRss = process.memoryUsage().rss;
    this.#timer = setInterval(() => this.#sample(), everyMs);
  }

  /** Call at the last item, inside the run, so what the run keeps is still reachable. */
  measureRetained(): void {
    this.#sample();
    gc();
    this.#retained = process.memoryUsage().heapUsed;
  }

  stop(): MemoryFigures {
    clearInterval(this.#timer);
    this.#sample();
    return {
      baseRssMb: this.#baseRss / MB,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
      peakHeapTotalMb: this.#peakHeapTotal / MB,
      peakOldSpaceMb: this.#peakOldSpace / MB,
      retainedHeapMb: this.#retained / MB,
    };
  }

  #sample(): void {
    this.#peakHeapTotal = Math.max(this.#peakHeapTotal, getHeapStatistics().total_heap_size);
    const old = getHeapSpaceStatistics().find((s) => s.space_name === 'old_space');
    this.#peakOldSpace = Math.max(this.#peakOldSpace, old?.space_size ?? 0);
  }
}
