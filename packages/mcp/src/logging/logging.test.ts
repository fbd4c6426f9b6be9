import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type LoggingMessageNotification,
  LoggingMessageNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { SkeinEngine } from '@skein/core';
import { afterEach, describe, expect, it } from 'vitest';
import { registerConformanceWorkflows } from '../conformance/fixture-workflows.js';
import { createMcpServer } from '../server/create-mcp-server.js';
import type { SkeinMcpServer } from '../server/skein-mcp-server.js';
import { connectInMemory } from '../test-support/connect.js';

const servers: SkeinMcpServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

type Params = LoggingMessageNotification['params'];

function fixtureEngine(): SkeinEngine {
  const engine = new SkeinEngine({});
  registerConformanceWorkflows(engine);
  return engine;
}

async function connect(engine = fixtureEngine()): Promise<{ client: Client; logs: Params[] }> {
  const server = createMcpServer(engine, { name: 'test', version: '1.0.0' });
  servers.push(server);
  const client = await connectInMemory(server);
  const logs: Params[] = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    logs.push(n.params);
  });
  return { client, logs };
}

describe("a call's thread events as MCP log messages", () => {
  it('are sent at and above the level the client set, before the result', async () => {
    const { client, logs } = await connect();
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    // Sent before the result: all here once the call returned.
    const events = logs.map((l) => (l.data as { event: string }).event);
    expect(events).toEqual([
      'thread:started',
      'node:completed',
      'node:completed',
      'node:completed',
      'node:completed',
      'node:completed',
      'thread:completed',
    ]);
    expect(new Set(logs.map((l) => l.level))).toEqual(new Set(['info']));
    expect(logs.every((l) => l.logger === 'skein')).toBe(true);
    expect(logs[1]!.data).toMatchObject({ nodeId: 'start', message: 'node completed at start' });

    logs.length = 0;
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(
      logs.filter((l) => l.level === 'debug').map((l) => (l.data as { event: string }).event),
    ).toEqual(Array(5).fill('node:started'));
  });

  it('are not sent to a client that set no level', async () => {
    const { client, logs } = await connect();
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    await client.ping();
    expect(logs).toEqual([]);
  });

  it('say a failed tool is a warning, and only what is at or above the level goes out', async () => {
    const { client, logs } = await connect();
    await client.setLoggingLevel('warning');
    const result = await client.callTool({ name: 'test_error_handling', arguments: {} });
    expect(result.isError).toBe(true);
    expect(logs.map((l) => [l.level, (l.data as { event: string }).event])).toEqual([
      ['warning', 'tool:error'],
    ]);
    expect((logs[0]!.data as { message: string }).message).toBe(
      'tool fail_on_purpose failed at fail: This tool intentionally returns an error for testing',
    );
  });

  it('keep one level per connection', async () => {
    const engine = fixtureEngine();
    const one = await connect(engine);
    const two = await connect(engine);
    await one.client.setLoggingLevel('debug');
    await two.client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    await one.client.ping();
    expect(one.logs).toEqual([]);
    expect(two.logs).toEqual([]);
  });
});
