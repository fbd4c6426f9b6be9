import { describe, expect, it } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { makeCheckpoint } from './test-support/make-checkpoint.js';
import { useTestPostgres } from './test-support/use-test-postgres.js';

const db = useTestPostgres();

/** Rows the server inserted into the schema's tables so far (pg_stat counters). */
async function inserted(schema: string): Promise<Record<string, number>> {
  // The statistics are sent to the collector at the end of each transaction; make them current.
  await db.pool.query('SELECT pg_stat_force_next_flush()');
  const { rows } = await db.pool.query<{ relname: string; n: string }>(
    'SELECT relname, n_tup_ins AS n FROM pg_stat_user_tables WHERE schemaname = $1',
    [schema],
  );
  return Object.fromEntries(rows.map((r) => [r.relname, Number(r.n)]));
}

describe('saving a checkpoint', () => {
  it('writes only what it adds: each message once, whatever the thread’s length', async () => {
    const store = new PostgresCheckpointStore({ pool: db.pool, schema: 'incremental' });
    let messages = 0;
    const deltas: Record<string, number>[] = [];
    for (let sequence = 1; sequence <= 300; sequence++) {
      const before = sequence === 1 || sequence === 300 ? await inserted('incremental') : {};
      await store.save(
        makeCheckpoint('t', sequence, { messages, log: 0 }, [
          { role: 'user', content: `q${sequence}` },
          { role: 'assistant', content: `a${sequence}` },
        ]),
      );
      messages += 2;
      if (sequence === 1 || sequence === 300) {
        const after = await inserted('incremental');
        deltas.push(
          Object.fromEntries(
            Object.entries(after).map(([table, n]) => [table, n - (before[table] ?? 0)]),
          ),
        );
      }
    }
    // The 300th save writes two messages and a checkpoint, as the first did (which also made the
    // thread row) — not the 598 messages before it.
    expect(deltas[1]).toMatchObject({ messages: 2, checkpoints: 1, threads: 0, log_entries: 0 });
    expect(deltas[0]).toMatchObject({ messages: 2, checkpoints: 1, threads: 1 });
    const counts = await db.pool.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM incremental.messages',
    );
    expect(counts.rows[0]!.n).toBe(600);
    const loaded = (await store.load('t'))!;
    expect(loaded.conversation.messages).toHaveLength(600);
    expect(loaded.conversation.messages.at(-1)).toEqual({ role: 'assistant', content: 'a300' });
  });
});
