import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { SqliteCheckpointStore } from '@skein/store-sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { expectGreetingWithProgress } from '../test-support/progress-arrivals.js';
import { spawnServer } from '../test-support/spawn-cli.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// Each test starts real processes through tsx (two in a row here): on a 2-core machine running
// the whole test command beside other jobs that took over 90 s. The bound only catches a hang.
// So does each request's: the SDK's 60 s default was passed there once (the 10 MiB call).
const patient = { timeout: 240_000 };
describe('skein-mcp over stdio (a real child process)', { timeout: 300_000 }, () => {
  it('serves the module, survives hostile calls, and a restarted process resumes a thread by id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-mcp-stdio-'));
    dirs.push(dir);
    const env = { SKEIN_MCP_TEST_DB: join(dir, 'threads.db') };

    const first = await spawnServer(env);
    expect(first.client.getServerVersion()).toMatchObject({ name: 'stdio-test', version: '2.0.0' });
    expect((await first.client.listTools(undefined, patient)).tools.map((t) => t.name)).toEqual([
      'greet',
      'trip',
      'booking',
      'resume_thread',
      'get_thread',
    ]);
    expect(
      (await first.client.readResource({ uri: 'test://module-note' }, patient)).contents,
    ).toEqual([
      { uri: 'test://module-note', mimeType: 'text/plain', text: 'published by the module' },
    ]);
    // Every node's progress before the result, over stdio (in CI the SDK client once missed the
    // last one: see `expectGreetingWithProgress`).
    await expectGreetingWithProgress(first.client);

    // Hostile calls: each gets its MCP error, and the process goes on answering.
    await expect(
      first.client.callTool({ name: 'nope', arguments: {} }, undefined, patient),
    ).rejects.toThrow(/-32602/);
    const huge = (await first.client.callTool(
      {
        name: 'greet',
        arguments: { name: 'x'.repeat(10 * 1024 * 1024) },
      },
      undefined,
      patient,
    )) as CallToolResult;
    expect(huge).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^ARGUMENTS_TOO_LARGE/) }],
    });
    const malformed = (await first.client.callTool(
      {
        name: 'resume_thread',
        arguments: { threadId: "'; DROP TABLE threads; --", input: 'x' },
      },
      undefined,
      patient,
    )) as CallToolResult;
    expect(malformed).toMatchObject({
      isError: true,
      content: [{ text: expect.stringMatching(/^INVALID_ARGUMENTS/) }],
    });

    const paused = (await first.client.callTool(
      { name: 'trip', arguments: {} },
      undefined,
      patient,
    )) as CallToolResult;
    const { threadId } = paused.structuredContent as { threadId: string };
    expect(paused.structuredContent).toMatchObject({ status: 'PAUSED' });
    await first.client.close();
    // What the module printed went to stderr, not into the protocol.
    expect(first.stderr()).toContain('test module loaded');

    const second = await spawnServer(env);
    const done = (await second.client.callTool(
      {
        name: 'resume_thread',
        arguments: { threadId, input: 'Quito' },
      },
      undefined,
      patient,
    )) as CallToolResult;
    expect(done.structuredContent).toEqual({
      threadId,
      workflowId: 'trip',
      status: 'COMPLETED',
      output: 'Plan for Quito',
    });
    await second.client.close();
  });

  it('asks through elicitation, and cancels the thread when the client cancels the call', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-mcp-stdio-'));
    dirs.push(dir);
    const filename = join(dir, 'threads.db');
    const { client } = await spawnServer(
      { SKEIN_MCP_TEST_DB: filename },
      { elicit: () => ({ action: 'accept', content: { answer: 'Hanoi' } }) },
    );
    const trip = (await client.callTool(
      { name: 'trip', arguments: {} },
      undefined,
      patient,
    )) as CallToolResult;
    expect(trip.structuredContent).toMatchObject({ status: 'COMPLETED', output: 'Plan for Hanoi' });

    const controller = new AbortController();
    const reachedModel = new Promise<void>((resolve) => {
      void client
        .callTool({ name: 'greet', arguments: { name: 'HANG' } }, undefined, {
          signal: controller.signal,
          onprogress: (p) => {
            if (p.message?.includes('LLM')) resolve();
          },
        })
        .catch(() => undefined);
    });
    await reachedModel;
    controller.abort();
    // The call never finished, so its thread id was never handed out: find it in the store.
    const store = new SqliteCheckpointStore({ filename });
    let cancelled: string | undefined;
    while (cancelled === undefined) {
      const threads = await store.listThreads();
      cancelled = threads.find((t) => t.status === 'CANCELLED')?.threadId;
      if (cancelled === undefined) await new Promise((resolve) => setImmediate(resolve));
    }
    store.close();
    const seen = (await client.callTool(
      {
        name: 'get_thread',
        arguments: { threadId: cancelled },
      },
      undefined,
      patient,
    )) as CallToolResult;
    expect(seen.structuredContent).toMatchObject({ workflowId: 'greet', status: 'CANCELLED' });
    await client.close();
  });
});
