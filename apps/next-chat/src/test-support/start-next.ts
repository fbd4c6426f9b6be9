import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const appDir = fileURLToPath(new URL('../..', import.meta.url));
const nextBin = createRequire(import.meta.url).resolve('next/dist/bin/next');

export interface NextServer {
  readonly url: string;
  close(): Promise<void>;
}

/** A port free on 127.0.0.1 right now (`next start` takes no port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(address),
      );
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts the app `next build` made with `next start` on 127.0.0.1 and resolves once it answers
 * HTTP (polled, up to `readyWithinMs`: no guess at how fast the machine is). A port taken between
 * the probe and the start is retried with another.
 */
export async function startNext(
  env: Record<string, string>,
  { readyWithinMs = 120_000 } = {},
): Promise<NextServer> {
  if (!existsSync(`${appDir}.next/BUILD_ID`))
    throw new Error('No build: run `pnpm --filter @skein/example-next-chat build` first');
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child = spawn(process.execPath, [nextBin, 'start', '-H', '127.0.0.1', '-p', `${port}`], {
      cwd: appDir,
      env: { ...process.env, NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + readyWithinMs;
    while (child.exitCode === null && child.signalCode === null && Date.now() < deadline) {
      const answered = await fetch(`${url}/api/chat`).then(
        async (response) => {
          await response.body?.cancel();
          return true;
        },
        () => false,
      );
      if (answered) return { url, close: () => stop(child) };
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await stop(child);
    if (attempt < 3 && output.includes('EADDRINUSE')) continue;
    throw new Error(`next start did not answer on ${url}:\n${output}`);
  }
}
