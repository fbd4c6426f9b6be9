import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli, SHUTDOWN_GRACE_MS } from './run-cli.js';

const MODULE = fileURLToPath(new URL('../test-support/server-module.ts', import.meta.url));

const dirs: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** `runCli` in this process, over HTTP on a free port (stdio would take this process's stdin). */
function serveHttpUntil(signal: AbortSignal) {
  const dir = mkdtempSync(join(tmpdir(), 'skein-mcp-cli-'));
  dirs.push(dir);
  const closed = join(dir, 'closed.json');
  vi.stubEnv('SKEIN_MCP_TEST_CLOSED', closed);
  const stderr = new PassThrough();
  let written = '';
  stderr.on('data', (chunk: Buffer) => {
    written += chunk.toString();
  });
  const exit = runCli(['--http', '--port', '0', MODULE], {
    stdout: new PassThrough(),
    stderr,
    signal,
  });
  return { exit, closed, stderr: () => written };
}

describe('runCli shutting down', () => {
  it('stops at once when the signal came while the module was loading, and runs its close', async () => {
    // A listener added after the abort would never hear it: the server would serve on.
    const cli = serveHttpUntil(AbortSignal.abort());
    expect(await cli.exit).toBe(0);
    expect(existsSync(cli.closed)).toBe(true);
  });

  it('exits 1 once the grace period has passed when the module never finishes closing', async () => {
    // Only the grace timer is faked: the HTTP server's own I/O runs as usual.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    vi.stubEnv('SKEIN_MCP_TEST_CLOSE_HANGS', '1');
    const cli = serveHttpUntil(AbortSignal.abort());
    let code: number | undefined;
    void cli.exit.then((c) => {
      code = c;
    });
    // Shutting down starts the grace timer; wait for it, turning the event loop, not the clock.
    while (vi.getTimerCount() === 0) await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(SHUTDOWN_GRACE_MS - 1);
    expect(code).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(await cli.exit).toBe(1);
    expect(existsSync(cli.closed)).toBe(true);
    expect(cli.stderr()).toMatch(/did not finish within 10000 ms; exiting/);
  });
});
