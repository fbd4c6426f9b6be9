import type { BenchRow } from './harness.js';

export interface BenchSuite {
  readonly name: string;
  run(): Promise<BenchRow[]>;
  /** Ratios and target checks, printed under the table. */
  summarize?(rows: readonly BenchRow[]): string;
}
