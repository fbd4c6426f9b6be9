import { type ChildProcess, spawn } from 'node:child_process';

// The app as a user runs it: a child process (tsx compiles the source), the embedded model.

const cli = new URL('../cli.ts', import.meta.url).pathname;
// The package folder, where `--import tsx` resolves; every path the tests pass is absolute.
const packageDir = new URL('../..', import.meta.url).pathname;

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment without any model endpoint, so the embedded model runs. */
export function embeddedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...extra };
  if (!extra.OPENAI_BASE_URL) delete env.OPENAI_BASE_URL;
  delete env.OPENAI_API_KEY;
  delete env.SKEIN_MODEL;
  return env;
}

export function start(args: string[], env = embeddedEnv()): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
    cwd: packageDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export function finish(child: ChildProcess, onStdout?: (text: string) => void): Promise<Run> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => {
      stdout += d.toString();
      onStdout?.(stdout);
    });
    child.stderr!.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

export const run = (args: string[], env?: NodeJS.ProcessEnv) => finish(start(args, env));
