import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, withRaw } from './test-support/driver.js';
import { CITIES, fanOutEngine } from './test-support/fan-out-workflow.js';

const script = fileURLToPath(new URL('./test-support/run-fan-out-child.ts', import.meta.url));
const packageDir = fileURLToPath(new URL('../', import.meta.url));

function counts(file: string): Record<string, number> {
  const counted: Record<string, number> = {};
  for (const city of readFileSync(file, 'utf8').split('\n').filter(Boolean))
    counted[city] = (counted[city] ?? 0) + 1;
  return counted;
}

describe('a fan-out killed with SIGKILL while one branch still runs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'skein-sqlite-fanout-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('resumes only the unfinished branch: finished branches call no tool again', async () => {
    const filename = join(dir, 'fan.db');
    const callsFile = join(dir, 'calls.txt');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', script, filename, 'trip', callsFile, 'Slow'],
      { cwd: packageDir, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    const finished: string[] = [];
    let hanging = false;
    for await (const line of createInterface({ input: child.stdout })) {
      if (line === 'hang') hanging = true;
      const branch = /^branch (\S+) COMPLETED$/.exec(line)?.[1];
      if (branch) finished.push(branch);
      if (hanging && finished.length === CITIES.length - 1) {
        child.kill('SIGKILL');
        break;
      }
    }
    expect(await exited, stderr).toBe('SIGKILL');
    expect(counts(callsFile)).toEqual({ Oslo: 1, Rome: 1, Lima: 1, Pune: 1 });

    // The next process: the parent was at the MAP node, four branches are stored as COMPLETED,
    // the fifth died in its first node, before its first checkpoint.
    const store = openStore({ filename });
    const threads = await store.listThreads();
    expect(threads.find((t) => t.threadId === 'trip')).toMatchObject({ status: 'RUNNING' });
    const branches = threads.filter((t) => t.threadId !== 'trip');
    expect(branches.map((t) => `${t.threadId} ${t.status}`).sort()).toEqual([
      'trip/each@1[0] COMPLETED',
      'trip/each@1[1] COMPLETED',
      'trip/each@1[2] COMPLETED',
      'trip/each@1[3] COMPLETED',
    ]);
    const engine = fanOutEngine(store, { callsFile });
    // The dead process's lease on the parent outlives it: the next process takes it over once it
    // has run out, at the time the file holds.
    const expiry = withRaw(
      filename,
      (db) =>
        db
          .column<[string], number>('SELECT expires_at FROM leases WHERE thread_id = ?')
          .get('trip')!,
      { readonly: true },
    );
    const lease = { owner: engine.owner, expiresAt: expiry + 60_000 };
    expect(await store.acquireLease('trip', { ...lease, now: expiry - 1 })).toBe(false);
    expect(await store.acquireLease('trip', { ...lease, now: expiry })).toBe(true);
    const ran: string[] = [];
    engine.events.on('thread:started', (e) => ran.push(e.threadId));
    engine.events.on('node:started', (e) => ran.push(`${e.threadId}:${e.nodeId}`));
    const thread = await engine.loadThread('trip');
    const { result } = await engine.run(thread);
    expect(result.status).toBe('COMPLETED');
    // Only the Slow branch ran again (it had stored nothing, so from its start).
    expect(ran.filter((r) => r.includes('/each@'))).toEqual([
      'trip/each@1[4]',
      'trip/each@1[4]:ask',
    ]);
    expect(counts(callsFile)).toEqual({ Oslo: 1, Rome: 1, Lima: 1, Pune: 1, Slow: 1 });

    // The same as an uninterrupted run.
    const reference = await fanOutEngine(openStore({ filename: join(dir, 'reference.db') }), {
      callsFile: join(dir, 'reference-calls.txt'),
    }).run('compare', { threadId: 'trip', variables: { cities: CITIES } });
    expect(result.output).toEqual(reference.result.output);
    expect(result.output).toEqual(CITIES.map((c) => `${c}: mild`));
    store.close();
  });
});
