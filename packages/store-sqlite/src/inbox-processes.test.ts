import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from './test-support/driver.js';
import { halfToolRounds, inboxChatEngine } from './test-support/inbox-chat.js';

interface Sent {
  readonly id: string;
  readonly ifBusy: string;
  readonly status: string;
}

const script = fileURLToPath(new URL('./test-support/inbox-child.ts', import.meta.url));
const packageDir = fileURLToPath(new URL('../', import.meta.url));

/** Runs `inbox-child.ts` for `senders`; resolves with what each send reported. */
function child(args: readonly string[], ready: () => void): Promise<Sent[]> {
  const process_ = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: packageDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  process_.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => process_.on('exit', resolve));
  return (async () => {
    const sent: Sent[] = [];
    for await (const line of createInterface({ input: process_.stdout }))
      if (line === 'ready') ready();
      else if (line !== 'done') sent.push(JSON.parse(line) as Sent);
    expect(await exited, stderr).toBe(0);
    return sent;
  })();
}

describe('messages sent to one thread from three processes on one SQLite file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-sqlite-inbox-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Ten senders in three processes, five messages each, every ifBusy drawn at random.
  // Bounded for a hang, not timed: three processes start through tsx on a machine that may be
  // busy; a child that is stuck says what it waits for after 100 s and exits.
  it.each([1, 2])(
    'each message is taken once, in each sender’s order (seed %i)',
    { timeout: 150_000 },
    async (seed) => {
      const filename = join(dir, `inbox-${seed}.db`);
      const go = join(dir, `go-${seed}`);
      const groups = [
        ['a', 'b', 'c'],
        ['d', 'e', 'f'],
        ['g', 'h', 'i', 'j'],
      ];
      let waiting = groups.length;
      let runs: Promise<Sent[]>[] = [];
      const allReady = new Promise<void>((resolve) => {
        const ready = () => {
          if (--waiting === 0) resolve();
        };
        runs = groups.map((senders, i) =>
          child([filename, `p${i}`, String(seed * 10 + i), senders.join(','), '5', go], ready),
        );
      });
      await allReady;
      writeFileSync(go, '');
      const sent = (await Promise.all(runs)).flat();
      expect(sent).toHaveLength(50);

      const store = openStore({ filename });
      try {
        const engine = inboxChatEngine(store, 'checker');
        const thread = (await engine.getThread('chat'))!;
        expect(thread.status).not.toBe('RUNNING');
        expect(await store.pendingMessages('chat')).toEqual([]);
        const messages = thread.conversation.getAllMessages();
        const users = messages.filter((m) => m.role === 'user').map((m) => m.content as string);
        const refused = sent.filter((s) => s.status === 'REJECTED').map((s) => s.id);
        const delivered = sent.filter((s) => s.status !== 'REJECTED').map((s) => s.id);
        // Exactly once: every message not refused, none refused, none twice.
        expect([...users].sort()).toEqual([...delivered].sort());
        for (const id of refused) expect(users).not.toContain(id);
        // In each sender's order.
        for (const sender of groups.flat()) {
          const own = users.filter((u) => u.startsWith(`${sender}-`));
          expect(own).toEqual(
            [...own].sort((x, y) => Number(x.split('-')[1]) - Number(y.split('-')[1])),
          );
        }
        // An interrupt never leaves a tool call without its result.
        expect(halfToolRounds(messages)).toEqual([]);
        // Messages that waited in the inbox carry their place in it, in order.
        const seqs = messages.flatMap((m) =>
          typeof m.metadata?.inbox === 'number' ? [m.metadata.inbox] : [],
        );
        expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
        expect(new Set(seqs).size).toBe(seqs.length);
      } finally {
        store.close();
      }
    },
  );
});
