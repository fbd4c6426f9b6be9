import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { compiledWorker } from './compiled-worker.js';

const run = promisify(execFile);

export function tempFolder(): string {
  return mkdtempSync(join(tmpdir(), 'skein-runner-bench-'));
}

/** Runs one measurement in a fresh process and returns its JSON line. */
export async function measureInWorker(
  mode: string,
  n: number,
  concurrency: number,
  folder?: string,
  nodeFlags: readonly string[] = [],
  extraArgs: readonly string[] = [],
): Promise<Record<string, number>> {
  const dir = folder ?? tempFolder();
  try {
    return await runWorker(mode, n, concurrency, dir, nodeFlags, extraArgs);
  } finally {
    if (folder === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

async function runWorker(
  mode: string,
  n: number,
  concurrency: number,
  folder: string,
  nodeFlags: readonly string[],
  extraArgs: readonly string[],
): Promise<Record<string, number>> {
  const { stdout } = await run(
    process.execPath,
    [
      '--expose-gc',
      ...nodeFlags,
      compiledWorker(),
      mode,
      String(n),
      String(concurrency),
      folder,
      ...extraArgs,
    ],
    { maxBuffer: 64 << 20, timeout: 30 * 60_000 },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, number>;
}

/** Starts the worker and kills it with SIGKILL once `killAt` items are done. */
export async function killWorkerAt(
  mode: string,
  n: number,
  concurrency: number,
  folder: string,
  killAt: number,
): Promise<void> {
  const child: ChildProcess = spawn(
    process.execPath,
    [compiledWorker(), mode, String(n), String(concurrency), folder],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((resolve) => child.on('exit', resolve));
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('done ') && Number(line.slice(5)) >= killAt) {
      child.kill('SIGKILL');
      break;
    }
  }
  await exited;
}
