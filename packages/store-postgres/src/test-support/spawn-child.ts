import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface Child {
  readonly process: ChildProcess;
  /** Resolves with the child's next line of output. */
  next(): Promise<string>;
  /** Writes one line to the child's stdin. */
  send(line: string): void;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

const packageDir = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Starts a TypeScript file in a new Node process (through tsx). Callers name it with
 * `new URL('./test-support/x.ts', import.meta.url)`, which knip follows as an import.
 */
export function spawnChild(script: URL, args: readonly (string | number)[]): Child {
  const file = fileURLToPath(script);
  const child = spawn(process.execPath, ['--import', 'tsx', file, ...args.map(String)], {
    cwd: packageDir,
    stdio: ['pipe', 'pipe', 'pipe'],
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
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  return {
    process: child,
    async next() {
      const { value, done } = await lines.next();
      if (done) throw new Error(`child ${file} ended early: ${(await exited).stderr}`);
      return value;
    },
    send: (line) => child.stdin!.write(`${line}\n`),
    exited,
  };
}
