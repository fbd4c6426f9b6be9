import { existsSync } from 'node:fs';
import { SqliteCheckpointStore } from '@skein/store-sqlite';

/** Prints the stored threads of a database, newest first. */
export async function listThreads(db: string): Promise<number> {
  if (!existsSync(db)) {
    process.stdout.write(`No threads yet (${db} does not exist).\n`);
    return 0;
  }
  const store = new SqliteCheckpointStore({ filename: db });
  try {
    const threads = (await store.listThreads()).sort((a, b) =>
      b.updatedAt.localeCompare(a.updatedAt),
    );
    if (threads.length === 0) {
      process.stdout.write(`No threads in ${db}.\n`);
      return 0;
    }
    const rows = threads.map((t) => [
      t.threadId,
      t.status,
      String(t.step),
      String(t.checkpoints),
      t.updatedAt,
    ]);
    const header = ['thread', 'status', 'steps', 'checkpoints', 'updated'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
    process.stdout.write(`${line(header)}\n${rows.map(line).join('\n')}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
