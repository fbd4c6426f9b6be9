import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createWorkerClient, type WorkerClient } from '@skein/worker';

const script = fileURLToPath(new URL('./worker-process.ts', import.meta.url));

function startWorker(
  connectionString: string,
  steps: number,
  delayMs: number,
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', script, connectionString, String(steps), String(delayMs)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench worker exited (${code})`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve(child);
    });
  });
}

function stopWorker(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Enqueues `count` threads and resolves with the ms until the last one completed. */
async function runThreads(client: WorkerClient, prefix: string, count: number): Promise<number> {
  let left = count;
  let done: () => void = () => {};
  const all = new Promise<void>((resolve) => {
    done = resolve;
  });
  const ids = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  const unsubscribe = await Promise.all(
    ids.map((id) =>
      client.subscribe(id, (event) => {
        if (event.event === 'thread:completed' && --left === 0) done();
      }),
    ),
  );
  const started = performance.now();
  await Promise.all(
    ids.map((id) => client.enqueueThread('model-steps', undefined, { threadId: id })),
  );
  await all;
  const ms = performance.now() - started;
  await Promise.all(unsubscribe.map((stop) => stop()));
  return ms;
}

/**
 * ms for `threads` threads of `steps` model steps on 1, 2 and 4 worker processes (default
 * concurrency), each process started fresh on the same database, after a warm-up run.
 */
export async function workerCurve(
  connectionString: string,
  threads: number,
  steps: number,
  delayMs: number,
  processes: readonly number[],
): Promise<Map<number, number>> {
  const client = createWorkerClient({ connectionString });
  const children: ChildProcess[] = [];
  const result = new Map<number, number>();
  try {
    await client.migrate();
    for (const count of processes) {
      while (children.length < count)
        children.push(await startWorker(connectionString, steps, delayMs));
      await runThreads(client, `warm-${count}`, Math.min(threads, 100));
      result.set(count, await runThreads(client, `run-${count}`, threads));
    }
  } finally {
    for (const child of children) await stopWorker(child);
    await client.close();
  }
  return result;
}
