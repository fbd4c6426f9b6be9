import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type ClientOptions, testClient } from './connect.js';

const packageDir = fileURLToPath(new URL('../../', import.meta.url));
const CLI = fileURLToPath(new URL('../cli.ts', import.meta.url));
const MODULE = fileURLToPath(new URL('./server-module.ts', import.meta.url));

export interface SpawnedServer {
  readonly client: Client;
  /** The `skein-mcp` process: its stdin (the client's end of the protocol) and its signals. */
  readonly child: ChildProcess;
  /** Resolves with how the process ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

/**
 * The SDK's transport hands out the pid but not the process, and its `close()` ends stdin and
 * then, on 2 s timers, sends SIGTERM and SIGKILL: a test that must tell those apart on a slow
 * machine, or read the exit code, needs the process itself (a private field of SDK 1.32).
 */
function childOf(transport: StdioClientTransport): ChildProcess {
  const child = (transport as unknown as { _process?: ChildProcess })._process;
  if (child === undefined)
    throw new Error('StdioClientTransport keeps no _process: the SDK changed');
  return child;
}

/**
 * `skein-mcp <test module>` in a child process (from source, through tsx, as one Node process so
 * a signal reaches the CLI itself), and an SDK client connected over its stdio.
 */
export async function spawnServer(
  env: Record<string, string>,
  options: ClientOptions = {},
): Promise<SpawnedServer> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', CLI, MODULE],
    cwd: packageDir,
    env: { ...(process.env as Record<string, string>), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = testClient(options);
  // The child starts through tsx: on a busy machine its answer to initialize can take a while.
  await client.connect(transport, { timeout: 240_000 });
  const child = childOf(transport);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null)
      resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return { client, child, exited, stderr: () => stderr };
}
