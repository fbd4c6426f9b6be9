import { openStore, type StoreChoice } from './open-store.js';

/** The top-level thread a stored thread belongs to: branch and child ids extend it with `/`. */
function rootOf(threadId: string): string {
  const slash = threadId.indexOf('/');
  return slash === -1 ? threadId : threadId.slice(0, slash);
}

/**
 * Prints the stored threads of a database, newest first, each followed by its branch and child
 * threads (indented, in id order).
 */
export async function listThreads(choice: StoreChoice): Promise<number> {
  const opened = await openStore(choice, { create: false });
  if (opened === undefined) {
    process.stdout.write(`No threads yet (${choice.db} does not exist).\n`);
    return 0;
  }
  const { store, where } = opened;
  try {
    const all = await store.listThreads();
    const updated = new Map(
      all.filter((t) => !t.threadId.includes('/')).map((t) => [t.threadId, t.updatedAt]),
    );
    const latest = (t: (typeof all)[number]) => updated.get(rootOf(t.threadId)) ?? t.updatedAt;
    const threads = all.sort(
      (a, b) =>
        latest(b).localeCompare(latest(a)) ||
        rootOf(a.threadId).localeCompare(rootOf(b.threadId)) ||
        a.threadId.localeCompare(b.threadId, 'en', { numeric: true }),
    );
    if (threads.length === 0) {
      process.stdout.write(`No threads in ${where}.\n`);
      return 0;
    }
    const rows = threads.map((t) => [
      t.threadId.includes('/') ? `  ${t.threadId}` : t.threadId,
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
