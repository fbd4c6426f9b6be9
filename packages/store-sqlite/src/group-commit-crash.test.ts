import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openRaw, openStore } from './test-support/driver.js';

const THREADS = 40;
const script = fileURLToPath(new URL('./test-support/run-group-child.ts', import.meta.url));
const packageDir = fileURLToPath(new URL('../', import.meta.url));

describe('a process killed with SIGKILL while it group-commits saves of many threads', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-sqlite-group-crash-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('leaves every save it saw resolve, and no checkpoint half-written', async () => {
    const filename = join(dir, 'groups.db');
    const child = spawn(process.execPath, ['--import', 'tsx', script, filename, String(THREADS)], {
      cwd: packageDir,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    const seen = new Set<string>();
    // Killed from inside the stream of resolutions, so groups are being written as it dies.
    for await (const line of createInterface({ input: child.stdout! })) {
      const id = /^saved (\S+)$/.exec(line)?.[1];
      if (id !== undefined) seen.add(id);
      if (seen.size >= THREADS * 30) {
        child.kill('SIGKILL');
        break;
      }
    }
    expect(await exited).toBe('SIGKILL');
    const store = openStore({ filename });
    const raw = openRaw(filename, { readonly: true });
    try {
      const rowsOf = raw.column<[string], number>(
        `SELECT count(*) FROM messages WHERE thread = (SELECT id FROM threads WHERE thread_id = ?)`,
      );
      for (let i = 0; i < THREADS; i++) {
        const threadId = `t${i}`;
        const list = await store.list(threadId);
        // Whole checkpoints only, one after another from the first.
        expect(list.map((c) => c.id)).toEqual(list.map((_, n) => `${threadId}:${n + 1}`));
        const latest = list.at(-1)!;
        expect(latest.messageCount).toBe(list.length * 2);
        expect(rowsOf.get(threadId)).toBe(latest.messageCount);
        expect((await store.load(threadId))!.conversation.messages).toHaveLength(
          latest.messageCount,
        );
      }
      const stored = new Set(raw.column<[], string>('SELECT checkpoint_id FROM checkpoints').all());
      for (const id of seen) expect(stored.has(id)).toBe(true);
    } finally {
      raw.close();
      store.close();
    }
  });
});
