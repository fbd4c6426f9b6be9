import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteCheckpointStore, type SqliteDriverName } from '@skein/store-sqlite';
import { sqliteFloor } from './durable-throughput/floors.js';
import { nodesPerThread } from './durable-throughput/model-steps.js';
import { benchDrivers, openFloorDatabase } from './durable-throughput/sqlite-drivers.js';
import { floorRows, IDEAL_MS, STEPS, storeRows } from './durable-throughput/store-rows.js';
import type { BenchRow } from './harness.js';
import type { BenchSuite } from './suite.js';

// The SQLite rows of durable-throughput (issue 35) once per driver of the store: better-sqlite3
// and node:sqlite (Node 22.13 or later), each beside its own floor, and node:sqlite's time as a
// ratio of better-sqlite3's. BENCH_SQLITE_DRIVER=node:sqlite runs one alone,
// BENCH_SQLITE_DRIVER=node:sqlite,better-sqlite3 both in that order.

const SUITE = 'durable-sqlite';

const subjectOf = (driver: SqliteDriverName) => `SqliteCheckpointStore on ${driver}`;
const floorOf = (driver: SqliteDriverName) => `SQLite floor on ${driver}`;

export const durableSqliteSuite: BenchSuite = {
  name: SUITE,
  async run() {
    const rows: BenchRow[] = [];
    const checkpoints = 200 * nodesPerThread(STEPS);
    for (const driver of benchDrivers()) {
      const dir = mkdtempSync(join(tmpdir(), 'skein-bench-sqlite-'));
      try {
        const floor = sqliteFloor(openFloorDatabase(driver, dir), checkpoints, 200);
        rows.push(...floorRows(SUITE, floorOf(driver), checkpoints, floor));
        rows.push(
          ...(await storeRows(SUITE, subjectOf(driver), async (name) => {
            const store = new SqliteCheckpointStore({ filename: join(dir, `${name}.db`), driver });
            return { store, close: async () => store.close() };
          })),
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    return rows;
  },
  summarize(rows) {
    const lines: string[] = [];
    const of = (subject: string) => rows.filter((r) => r.subject === subject);
    for (const driver of ['better-sqlite3', 'node:sqlite'] as const) {
      const store = of(subjectOf(driver));
      const two = store.find((r) => r.case.startsWith('200 threads'));
      const saturated = store.find((r) => r.case.startsWith('saturation'));
      const batched = of(floorOf(driver)).find((r) => r.case.startsWith('floor: batched'));
      if (two && saturated && batched)
        lines.push(
          `${driver}: 200 threads ${(two.totalMs / IDEAL_MS).toFixed(2)}x ideal; saturation ${(saturated.totalMs / batched.totalMs).toFixed(1)}x its batched floor's time.`,
        );
    }
    for (const peer of of(subjectOf('better-sqlite3')).concat(of(floorOf('better-sqlite3')))) {
      const subject = peer.subject.replace('better-sqlite3', 'node:sqlite');
      const other = rows.find((r) => r.subject === subject && r.case === peer.case);
      if (other)
        lines.push(
          `node:sqlite / better-sqlite3, ${peer.case}: ${other.totalMs.toFixed(0)} / ${peer.totalMs.toFixed(0)} ms = ${(other.totalMs / peer.totalMs).toFixed(2)}x`,
        );
    }
    return lines.join('\n');
  },
};
