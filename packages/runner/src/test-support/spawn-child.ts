import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface Child {
  readonly process: ChildProcess;
  readonly lines: AsyncIterable<string>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

const packageDir = fileURLToPath(new URL('../../', import.meta.url));

/** The scripts a test can start, each a TypeScript file run through tsx. */
export const CHILDREN = {
  crash: new URL('./crash-child.ts', import.meta.url),
  scoreCrash: new URL('./score-crash-child.ts', import.meta.url),
  cli: new URL('./cli-child.ts', import.meta.url),
  fleet: new URL('./fleet-child.ts', import.meta.url),
};

/** The workflow module the CLI tests give `skein run`. */
export const QA_WORKFLOW_MODULE = fileURLToPath(
  new URL('./qa-workflow-module.ts', import.meta.url),
);

/** A workflow module with scorers, its threads in the SQLite file named by SCORED_DB. */
export const SCORED_WORKFLOW_MODULE = fileURLToPath(
  new URL('./scored-workflow-module.ts', import.meta.url),
);

/** A workflow module whose factory throws. */
export const THROWING_WORKFLOW_MODULE = fileURLToPath(
  new URL('./throwing-workflow-module.ts', import.meta.url),
);

/** Starts one of `CHILDREN` in a new Node process. */
export function spawnChild(
  child: URL,
  args: readonly (string | number)[],
  env: Readonly<Record<string, string>> = {},
): Child {
  const script = fileURLToPath(child);
  const started = spawn(process.execPath, ['--import', 'tsx', script, ...args.map(String)], {
    cwd: packageDir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  started.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
    stderr: string;
  }>((resolve) => started.on('exit', (code, signal) => resolve({ code, signal, stderr })));
  return { process: started, lines: createInterface({ input: started.stdout! }), exited };
}
