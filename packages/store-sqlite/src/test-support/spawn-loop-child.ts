import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface LoopChild {
  readonly process: ChildProcess;
  /** The child's stdout, line by line. */
  readonly lines: AsyncIterable<string>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

const script = fileURLToPath(new URL('./run-loop-child.ts', import.meta.url));
const packageDir = fileURLToPath(new URL('../../', import.meta.url));

/** Starts `run-loop-child.ts` in a new Node process (TypeScript through tsx). */
export function spawnLoopChild(args: readonly (string | number)[]): LoopChild {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args.map(String)], {
    cwd: packageDir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
  }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, stderr })));
  return { process: child, lines: createInterface({ input: child.stdout! }), exited };
}
