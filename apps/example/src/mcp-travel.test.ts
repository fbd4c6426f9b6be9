import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { embeddedEnv } from './test-support/cli-process.js';

// `pnpm mcp` as a client starts it: @skein/mcp's built `skein-mcp` serving this app's module
// (from source, through tsx), the embedded model, checkpoints in a temporary SQLite file.
const packageDir = new URL('..', import.meta.url).pathname;
// The bin as the app installs it (a workspace dependency), resolved through its package.
const skeinMcp = join(
  dirname(createRequire(import.meta.url).resolve('@skein/mcp/package.json')),
  'dist/cli.js',
);
const travelModule = new URL('./mcp-travel.ts', import.meta.url).pathname;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the travel assistant over MCP', () => {
  it('plans the trip, stops at the booking question, and books once resume_thread answers yes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'skein-example-mcp-'));
    dirs.push(dir);
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', skeinMcp, travelModule],
      cwd: packageDir,
      env: embeddedEnv({ SKEIN_DB: join(dir, 'threads.db') }) as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'example-test', version: '1.0.0' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['travel-assistant', 'resume_thread', 'get_thread']);
    expect(tools[0]!.description).toContain('Plans, prices and books a short trip');

    const paused = (await client.callTool(
      {
        name: 'travel-assistant',
        arguments: { message: '4 days somewhere warm in April', traveller: 'Grace' },
      },
      undefined,
      { timeout: 110_000 },
    )) as CallToolResult;
    expect(paused.structuredContent).toMatchObject({
      status: 'PAUSED',
      waitingFor: { kind: 'user-input', prompt: 'Book this trip for Grace? (yes/no)' },
    });
    const { threadId } = paused.structuredContent as { threadId: string };
    const booked = (await client.callTool(
      { name: 'resume_thread', arguments: { threadId, input: 'yes' } },
      undefined,
      { timeout: 110_000 },
    )) as CallToolResult;
    expect(booked.structuredContent).toMatchObject({
      status: 'COMPLETED',
      output: 'confirmed for Grace',
    });
    await client.close();
  });
});
