import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, withRaw } from './test-support/driver.js';
import { loopEngine, loopSteps } from './test-support/loop-workflow.js';
import { spawnLoopChild } from './test-support/spawn-loop-child.js';

const ROUNDS = 80;

interface LeaseChild {
  /** Resolves with the child's next line of output. */
  next(): Promise<string>;
  /** Writes one line to the child's stdin. */
  send(line: string): void;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** Starts `lease-child.ts` as `owner` on `filename` in a new Node process (through tsx). */
function spawnLeaseChild(filename: string, owner: string): LeaseChild {
  const script = fileURLToPath(new URL('./lease-child.ts', import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', script, filename, owner], {
    cwd: fileURLToPath(new URL('../', import.meta.url)),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
  }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    async next() {
      const { value, done } = await lines.next();
      if (done) throw new Error(`lease child ${owner} ended early: ${(await exited).stderr}`);
      return value;
    },
    send: (line) => child.stdin.write(`${line}\n`),
    exited,
  };
}

/** Sends each child its line (all before reading any answer) and collects one answer from each. */
function ask(children: LeaseChild[], line: (i: number) => string): Promise<string[]> {
  for (const [i, child] of children.entries()) child.send(line(i));
  return Promise.all(children.map((child) => child.next()));
}

async function exitAll(children: LeaseChild[]): Promise<void> {
  for (const child of children) child.send('exit');
  for (const exit of await Promise.all(children.map((c) => c.exited)))
    expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });
}

describe('several processes on one database file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-sqlite-processes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('each run their own thread to the end, and every thread is stored whole', async () => {
    const filename = join(dir, 'shared.db');
    // All three open (and race to create) the file, then start writing together once the go
    // file exists; each model call takes 2 ms, so their runs overlap for their whole length.
    const go = join(dir, 'go');
    const children = ['w1', 'w2', 'w3'].map((threadId) =>
      spawnLoopChild([filename, threadId, ROUNDS, 2, 1, go]),
    );
    await Promise.all(
      children.map(async (child) => {
        for await (const line of child.lines) if (line === 'ready') return;
      }),
    );
    writeFileSync(go, '');
    const exits = await Promise.all(children.map((c) => c.exited));
    for (const exit of exits) expect(exit, exit.stderr).toMatchObject({ code: 0, signal: null });

    const reference = await loopEngine(openStore({ filename: ':memory:' }), {
      iterations: ROUNDS,
    }).run('loop', { threadId: 'ref', maxSteps: loopSteps(ROUNDS) });
    const expected = JSON.parse(JSON.stringify(reference.thread.conversation.getAllMessages()));
    const store = openStore({ filename });
    const threads = await store.listThreads();
    expect(threads.map((t) => t.threadId).sort()).toEqual(['w1', 'w2', 'w3']);
    for (const info of threads) {
      expect(info).toMatchObject({ status: 'COMPLETED', checkpoints: loopSteps(ROUNDS) });
      const loaded = (await store.load(info.threadId))!;
      expect(loaded.conversation.messages).toEqual(expected);
      expect(loaded.state.output).toEqual(reference.result.output);
    }
    store.close();
    // The writers really interleaved: checkpoint rows of different threads alternate in the file.
    const order = withRaw(
      filename,
      (db) => db.column<[], number>('SELECT thread FROM checkpoints ORDER BY id').all(),
      { readonly: true },
    );
    const switches = order.filter((thread, i) => i > 0 && thread !== order[i - 1]).length;
    expect(switches).toBeGreaterThan(10);
  }, 60_000);

  it('racing for the lease of a free thread: exactly one process gets it, every time', async () => {
    const filename = join(dir, 'lease-race.db');
    const children = ['p1', 'p2', 'p3'].map((owner) => spawnLeaseChild(filename, owner));
    expect(await Promise.all(children.map((c) => c.next()))).toEqual(['ready', 'ready', 'ready']);
    const winners: string[] = [];
    for (let round = 0; round < 20; round++) {
      const answers = await ask(children, () => `acquire race-${round} 1000 0`);
      expect(
        answers.filter((a) => a === 'acquired true'),
        answers.join(', '),
      ).toHaveLength(1);
      expect(answers.filter((a) => a === 'acquired false')).toHaveLength(2);
      winners.push(`p${answers.indexOf('acquired true') + 1}`);
    }
    await exitAll(children);
    // The file agrees with what each process was told.
    const owners = withRaw(
      filename,
      (db) =>
        db
          .prepare<[], { thread_id: string; owner: string }>('SELECT thread_id, owner FROM leases')
          .all(),
      { readonly: true },
    );
    expect(Object.fromEntries(owners.map((row) => [row.thread_id, row.owner]))).toEqual(
      Object.fromEntries(winners.map((owner, round) => [`race-${round}`, owner])),
    );
  }, 60_000);

  it('a process whose expired lease another process took is refused with THREAD_LEASED', async () => {
    const filename = join(dir, 'lease-fence.db');
    const first = spawnLeaseChild(filename, 'first');
    const second = spawnLeaseChild(filename, 'second');
    const both = [first, second];
    expect(await Promise.all(both.map((c) => c.next()))).toEqual(['ready', 'ready']);
    first.send('acquire t 1000 0');
    expect(await first.next()).toBe('acquired true');
    first.send('save t');
    expect(await first.next()).toBe('saved t:1');
    // At 1,000 the first process's lease has expired (it could not renew it): the second takes it.
    second.send('acquire t 2000 1000');
    expect(await second.next()).toBe('acquired true');
    first.send('acquire t 3000 1500');
    expect(await first.next()).toBe('acquired false');
    first.send('save t');
    expect(await first.next()).toBe('refused THREAD_LEASED');
    second.send('save t');
    expect(await second.next()).toBe('saved t:2');
    await exitAll(both);

    const store = openStore({ filename });
    const loaded = (await store.load('t'))!;
    expect(loaded.checkpoint).toMatchObject({ id: 't:2', sequence: 2 });
    expect(loaded.conversation.messages.map((m) => m.content)).toEqual([
      'first saves 1',
      'second saves 2',
    ]);
    store.close();
  }, 60_000);
});
