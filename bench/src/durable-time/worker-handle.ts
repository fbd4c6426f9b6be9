import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./worker-process.ts', import.meta.url));

export type Counted = 'thread:paused' | 'thread:completed';

/** A worker process of this suite (see worker-process.ts), driven over its stdin and stdout. */
export interface WorkerHandle {
  /** Epoch ms: when the process called createWorker, and when it resolved. */
  readonly startedAt: number;
  readonly readyAt: number;
  /** Resolves with the epoch ms of the `count`-th `event` counted from now. */
  expect(event: Counted, count: number): Promise<number>;
  /** Resolves with the first `reached` line (for a count given at start). */
  reached(): Promise<number>;
  /** RSS and V8 heap used, in bytes, after two full GCs in the worker. */
  memory(): Promise<{ rss: number; heapUsed: number }>;
  stop(): Promise<void>;
}

/**
 * Starts a worker process on `connectionString`; with `count`, it counts `event` from before
 * createWorker, so jobs already due when it starts are counted.
 */
export function startWorker(
  connectionString: string,
  count?: { event: Counted; count: number },
): Promise<WorkerHandle> {
  const child: ChildProcess = spawn(
    process.execPath,
    [
      '--expose-gc',
      '--import',
      'tsx',
      script,
      connectionString,
      ...(count ? [count.event, String(count.count)] : []),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const waiting: { prefix: string; resolve: (words: string[]) => void }[] = [];
  const early: string[][] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const words = line.trim().split(' ');
    const at = waiting.findIndex((w) => w.prefix === words[0]);
    if (at >= 0) waiting.splice(at, 1)[0]!.resolve(words);
    else early.push(words);
  });
  const next = (prefix: string) =>
    new Promise<string[]>((resolve) => {
      const at = early.findIndex((words) => words[0] === prefix);
      if (at >= 0) resolve(early.splice(at, 1)[0]!);
      else waiting.push({ prefix, resolve });
    });
  const send = (line: string) => child.stdin!.write(`${line}\n`);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`bench worker exited (${code})`)));
    void next('ready').then(([, startedAt, readyAt]) =>
      resolve({
        startedAt: Number(startedAt),
        readyAt: Number(readyAt),
        async expect(event, n) {
          const reached = next('reached');
          send(`expect ${event} ${n}`);
          return Number((await reached)[3]);
        },
        async reached() {
          return Number((await next('reached'))[3]);
        },
        async memory() {
          const answer = next('rss');
          send('rss');
          const [, rss, heapUsed] = await answer;
          return { rss: Number(rss), heapUsed: Number(heapUsed) };
        },
        stop() {
          return new Promise<void>((done) => {
            child.removeAllListeners('exit');
            child.once('exit', () => done());
            child.kill('SIGTERM');
          });
        },
      }),
    );
  });
}
