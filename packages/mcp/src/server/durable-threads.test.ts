import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../test-support/connect.js';
import { testEngine } from '../test-support/workflows.js';
import { createMcpServer } from './create-mcp-server.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A server over an engine with a SQLite store in `filename`, and a client of it. */
async function start(filename: string) {
  const store = new SqliteCheckpointStore({ filename });
  const server = createMcpServer(testEngine({ store }), { name: 'durable', version: '1.0.0' });
  const client = await connectInMemory(server);
  return {
    client,
    stop: async () => {
      await server.close();
      store.close();
    },
  };
}

describe('threads behind a durable store', () => {
  it('a thread started through MCP survives a restart of the server and is resumed by id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-mcp-'));
    dirs.push(dir);
    const filename = join(dir, 'threads.db');

    const first = await start(filename);
    const paused = (await first.client.callTool({ name: 'trip', arguments: {} })) as CallToolResult;
    const { threadId } = paused.structuredContent as { threadId: string };
    expect(paused.structuredContent).toMatchObject({ status: 'PAUSED' });
    await first.stop();

    const second = await start(filename);
    const seen = (await second.client.callTool({
      name: 'get_thread',
      arguments: { threadId },
    })) as CallToolResult;
    expect(seen.structuredContent).toMatchObject({
      status: 'PAUSED',
      waitingFor: { prompt: 'Which city?' },
    });
    const done = (await second.client.callTool({
      name: 'resume_thread',
      arguments: { threadId, input: 'Porto' },
    })) as CallToolResult;
    expect(done.structuredContent).toEqual({
      threadId,
      workflowId: 'trip',
      status: 'COMPLETED',
      output: 'Plan for Porto',
    });
    await second.stop();
  });

  it('closing the server cancels a running thread, which a restarted server runs on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-mcp-'));
    dirs.push(dir);
    const filename = join(dir, 'threads.db');
    const first = await start(filename);
    const progress = new Promise<void>((resolve) => {
      void first.client
        .callTool({ name: 'greet', arguments: { name: 'Ada', message: 'HANG' } }, undefined, {
          onprogress: (p) => {
            if (p.message?.includes('LLM')) resolve();
          },
        })
        .catch(() => undefined);
    });
    await progress;
    // The server's own threads, as the store lists them: the id was never handed out.
    const store = new SqliteCheckpointStore({ filename });
    const [info] = await store.listThreads();
    store.close();
    await first.stop();

    const second = await start(filename);
    const seen = (await second.client.callTool({
      name: 'get_thread',
      arguments: { threadId: info!.threadId },
    })) as CallToolResult;
    expect(seen.structuredContent).toMatchObject({ status: 'CANCELLED' });
    await second.stop();
  });
});
