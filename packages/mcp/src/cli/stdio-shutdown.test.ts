import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { type SpawnedServer, spawnServer } from '../test-support/spawn-cli.js';

const dirs: string[] = [];
const servers: SpawnedServer[] = [];
afterEach(() => {
  // A test that failed may leave its server running: end it, it is ours.
  for (const { child } of servers.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function storedThreads(filename: string) {
  const store = new SqliteCheckpointStore({ filename });
  try {
    return (await store.listThreads()).map((t) => ({ workflowId: t.workflowId, status: t.status }));
  } finally {
    store.close();
  }
}

/**
 * Calls `greet` with a model that answers only by being aborted (HANG), and resolves once the
 * thread is in the model call: the progress for the LLM node is sent after the START node's
 * checkpoint is stored, so the store then holds the thread RUNNING. `outcome` is how the call
 * ended (caught at once, so that its failure is never an unhandled rejection).
 */
async function threadInModel(client: Client): Promise<{ outcome: Promise<string> }> {
  let reachedModel = () => {};
  const inModel = new Promise<void>((resolve) => {
    reachedModel = resolve;
  });
  const outcome = client
    .callTool({ name: 'greet', arguments: { name: 'HANG' } }, undefined, {
      onprogress: (p) => {
        if (p.message?.includes('LLM')) reachedModel();
      },
    })
    .then(
      () => 'answered',
      (error: unknown) => String(error),
    );
  await Promise.race([
    inModel,
    outcome.then((how) => {
      throw new Error(`the call ended before its thread reached the model: ${how}`);
    }),
  ]);
  return { outcome };
}

// The ways a client ends a stdio server: closing its stdin (what the SDK client's close() does
// first; ended here directly, because the SDK follows it with SIGTERM after 2 s of wall time),
// the signals a client or a terminal sends, and going away (its end of stdout closed: the
// server's next write, the answer to a request, fails with EPIPE).
const endings: { how: string; end: (server: SpawnedServer) => void }[] = [
  { how: 'the client closes stdin', end: ({ child }) => child.stdin?.end() },
  { how: 'SIGTERM', end: ({ child }) => child.kill('SIGTERM') },
  { how: 'SIGINT', end: ({ child }) => child.kill('SIGINT') },
  {
    how: 'the client stops reading stdout',
    end: ({ child, client }) => {
      child.stdout?.destroy();
      void client.listTools().catch(() => undefined);
    },
  },
];

// Each test starts real processes through tsx (two in a row here): on a 2-core machine running
// the whole test command beside other jobs that took over 90 s. The bound only catches a hang.
describe('skein-mcp over stdio, shutting down with a thread running', { timeout: 300_000 }, () => {
  it.each(endings)(
    '$how: the thread ends CANCELLED, then the module closes, then the process exits 0',
    async ({ end }) => {
      const dir = mkdtempSync(join(tmpdir(), 'skein-mcp-shutdown-'));
      dirs.push(dir);
      const filename = join(dir, 'threads.db');
      const closed = join(dir, 'closed.json');
      const server = await spawnServer({
        SKEIN_MCP_TEST_DB: filename,
        SKEIN_MCP_TEST_CLOSED: closed,
      });
      servers.push(server);
      const { outcome } = await threadInModel(server.client);
      expect(await storedThreads(filename)).toEqual([{ workflowId: 'greet', status: 'RUNNING' }]);

      end(server);

      expect(await server.exited, server.stderr()).toEqual({ code: 0, signal: null });
      // The connection went before the call had a result.
      expect(await outcome).toMatch(/Connection closed/);
      expect(await storedThreads(filename)).toEqual([{ workflowId: 'greet', status: 'CANCELLED' }]);
      // The module's close ran, and found the thread already stopped.
      expect(JSON.parse(readFileSync(closed, 'utf8'))).toEqual(['CANCELLED']);
      await server.client.close();
    },
    // The server starts through tsx: seconds on a busy 2-core machine.
    120_000,
  );
});
