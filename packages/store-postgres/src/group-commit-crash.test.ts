import { describe, expect, it } from 'vitest';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { spawnChild } from './test-support/spawn-child.js';
import { useTestPostgres } from './test-support/use-test-postgres.js';

const THREADS = 40;

const db = useTestPostgres();

describe('a process killed with SIGKILL while it group-commits saves of many threads', () => {
  it('leaves every save it saw resolve, and no checkpoint half-written', async () => {
    const schema = 'group_crash';
    const child = spawnChild(new URL('./test-support/group-child.ts', import.meta.url), [
      db.server.connectionString,
      schema,
      THREADS,
    ]);
    const seen = new Set<string>();
    // Killed from inside the stream of resolutions, so groups are in flight as it dies.
    while (seen.size < THREADS * 20) {
      const id = /^saved (\S+)$/.exec(await child.next())?.[1];
      if (id !== undefined) seen.add(id);
    }
    child.process.kill('SIGKILL');
    expect((await child.exited).signal).toBe('SIGKILL');
    const store = new PostgresCheckpointStore({ pool: db.pool, schema });
    for (let i = 0; i < THREADS; i++) {
      const threadId = `t${i}`;
      const list = await store.list(threadId);
      expect(list.map((c) => c.id)).toEqual(list.map((_, n) => `${threadId}:${n + 1}`));
      const latest = list.at(-1)!;
      expect(latest.messageCount).toBe(list.length * 2);
      const { rows } = await db.pool.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM ${schema}.messages
         WHERE thread = (SELECT id FROM ${schema}.threads WHERE thread_id = $1)`,
        [threadId],
      );
      expect(rows[0]!.n).toBe(latest.messageCount);
    }
    const { rows } = await db.pool.query<{ checkpoint_id: string }>(
      `SELECT checkpoint_id FROM ${schema}.checkpoints`,
    );
    const stored = new Set(rows.map((row) => row.checkpoint_id));
    for (const id of seen) expect(stored.has(id)).toBe(true);
  });
});
