import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryCheckpointStore } from '@skein/core';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInMemory } from '../test-support/connect.js';
import { testEngine } from '../test-support/workflows.js';
import { createMcpServer } from './create-mcp-server.js';
import type { SkeinMcpServer } from './skein-mcp-server.js';

let server: SkeinMcpServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function client(options: { store?: boolean; workflows?: string[] } = {}) {
  const engine = testEngine(options.store ? { store: new InMemoryCheckpointStore() } : {});
  server = createMcpServer(engine, {
    name: 'test',
    version: '1.0.0',
    ...(options.workflows ? { workflows: options.workflows } : {}),
  });
  return { engine, client: await connectInMemory(server) };
}

/** The error text of a refused call: `CODE: message`. */
async function refusal(promise: Promise<unknown>): Promise<string> {
  const result = (await promise) as CallToolResult;
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}

describe('hostile inputs get MCP errors, and the server goes on', () => {
  it('an unknown tool is a JSON-RPC error (-32602)', async () => {
    const { client: c } = await client();
    for (const name of ['nope', '', 'x'.repeat(10_000), '__proto__', 'constructor'])
      await expect(c.callTool({ name, arguments: {} })).rejects.toThrow(/-32602.*No tool named/);
    expect((await c.listTools()).tools).toHaveLength(5);
  });

  it('arguments failing the workflow schema are INVALID_ARGUMENTS naming the problem', async () => {
    const { client: c } = await client();
    expect(await refusal(c.callTool({ name: 'greet', arguments: { name: 42 } }))).toMatch(
      /^INVALID_ARGUMENTS: Invalid arguments for greet: .*name.*string/,
    );
    expect(await refusal(c.callTool({ name: 'greet', arguments: { city: 'Lisbon' } }))).toMatch(
      /^INVALID_ARGUMENTS: .*additional properties/,
    );
    expect(await refusal(c.callTool({ name: 'greet', arguments: { message: ['hi'] } }))).toBe(
      'INVALID_ARGUMENTS: Invalid arguments for greet: message: must be a string, got object',
    );
  });

  it('a 10 MB argument is ARGUMENTS_TOO_LARGE, refused before any thread is made', async () => {
    const { client: c, engine } = await client();
    let threads = 0;
    engine.events.on('thread:started', () => threads++);
    const huge = 'x'.repeat(10 * 1024 * 1024);
    expect(await refusal(c.callTool({ name: 'greet', arguments: { name: huge } }))).toMatch(
      /^ARGUMENTS_TOO_LARGE: The arguments of greet are 10485\d\d\d bytes of JSON, over this server's limit of 1048576/,
    );
    expect(
      await refusal(c.callTool({ name: 'resume_thread', arguments: { threadId: huge } })),
    ).toMatch(/^ARGUMENTS_TOO_LARGE/);
    expect(threads).toBe(0);
  });

  it('a malformed thread id is INVALID_ARGUMENTS; an unknown one THREAD_NOT_FOUND', async () => {
    const { client: c } = await client({ store: true });
    for (const threadId of [
      '../../etc/passwd',
      42,
      null,
      '',
      'A0000000-0000-4000-8000-000000000000',
      'x'.repeat(500),
    ])
      for (const name of ['resume_thread', 'get_thread'])
        expect(await refusal(c.callTool({ name, arguments: { threadId } }))).toMatch(
          new RegExp(
            `^INVALID_ARGUMENTS: Invalid arguments for ${name}: threadId: expected the thread id`,
          ),
        );
    expect(await refusal(c.callTool({ name: 'get_thread', arguments: {} }))).toMatch(/threadId/);
    expect(
      await refusal(
        c.callTool({
          name: 'get_thread',
          arguments: { threadId: '0b0e8a52-4c3e-4a2f-9d8e-6c1f0e2d3a4b' },
        }),
      ),
    ).toMatch(/^THREAD_NOT_FOUND: No thread "0b0e8a52-4c3e-4a2f-9d8e-6c1f0e2d3a4b"/);
    expect(
      await refusal(
        c.callTool({
          name: 'resume_thread',
          arguments: { threadId: '0b0e8a52-4c3e-4a2f-9d8e-6c1f0e2d3a4b', input: 'x', extra: 1 },
        }),
      ),
    ).toMatch(/^INVALID_ARGUMENTS: .*extra: unknown argument/);
  });

  it('a thread of a workflow the server does not offer is not found, even with its id', async () => {
    const { client: c, engine } = await client({ store: true, workflows: ['greet'] });
    const threadId = '0b0e8a52-4c3e-4a2f-9d8e-6c1f0e2d3a4b';
    const { result } = await engine.run('trip', { threadId });
    expect(result.status).toBe('PAUSED');
    expect(
      await refusal(c.callTool({ name: 'resume_thread', arguments: { threadId, input: 'Rome' } })),
    ).toMatch(/^THREAD_NOT_FOUND/);
  });

  it('a pause is answered once: of two resumes at the same time, one runs the thread and one is refused', async () => {
    const { client: c } = await client({ store: true });
    const paused = (await c.callTool({ name: 'trip', arguments: {} })) as CallToolResult;
    const { threadId } = paused.structuredContent as { threadId: string };
    const results = (await Promise.all([
      c.callTool({ name: 'resume_thread', arguments: { threadId, input: 'Oslo' } }),
      c.callTool({ name: 'resume_thread', arguments: { threadId, input: 'Rome' } }),
    ])) as CallToolResult[];
    const completed = results.filter((r) => !r.isError);
    expect(completed).toHaveLength(1);
    const refused = results.find((r) => r.isError)!;
    expect(refused.content[0]).toMatchObject({
      text: expect.stringMatching(/^(RESUME_CONFLICT|THREAD_NOT_RESUMABLE|THREAD_LEASED):/),
    });
    const final = (await c.callTool({
      name: 'get_thread',
      arguments: { threadId },
    })) as CallToolResult;
    expect(final.structuredContent).toEqual(completed[0]!.structuredContent);
  });

  it('resume_thread refuses input for a thread that waits for none, and asks for it when it does', async () => {
    const { client: c } = await client();
    const paused = (await c.callTool({ name: 'trip', arguments: {} })) as CallToolResult;
    const { threadId } = paused.structuredContent as { threadId: string };
    expect(await refusal(c.callTool({ name: 'resume_thread', arguments: { threadId } }))).toMatch(
      /^THREAD_NOT_RESUMABLE: Thread ".*" \(PAUSED\) cannot go on: it waits for input, and none was given/,
    );
    const done = (await c.callTool({
      name: 'resume_thread',
      arguments: { threadId, input: 'Oslo' },
    })) as CallToolResult;
    expect(done.structuredContent).toMatchObject({ status: 'COMPLETED' });
    // Completed: resuming again only reports it.
    const again = (await c.callTool({
      name: 'resume_thread',
      arguments: { threadId },
    })) as CallToolResult;
    expect(again.structuredContent).toEqual(done.structuredContent);
  });

  it("a model's typo in an approval's call id is refused, and the thread stays answerable", async () => {
    const { client: c, engine } = await client({ store: true });
    let booked = 0;
    engine.events.on('tool:result', (e) => e.name === 'book_flight' && booked++);
    const paused = (await c.callTool({
      name: 'booking',
      arguments: { message: 'Book Lisbon' },
    })) as CallToolResult;
    const { threadId } = paused.structuredContent as { threadId: string };
    for (const input of [{ approvals: { call_bok: true } }, { approvals: {} }, 'yes please'])
      expect(
        await refusal(c.callTool({ name: 'resume_thread', arguments: { threadId, input } })),
      ).toMatch(/^RESUME_INPUT_INVALID: .*call_book/);
    const still = (await c.callTool({
      name: 'get_thread',
      arguments: { threadId },
    })) as CallToolResult;
    expect(still.structuredContent).toMatchObject({ status: 'PAUSED' });
    const done = (await c.callTool({
      name: 'resume_thread',
      arguments: { threadId, input: { approvals: { call_book: true } } },
    })) as CallToolResult;
    expect(done.structuredContent).toMatchObject({
      status: 'COMPLETED',
      output: 'Done: booked to Lisbon',
    });
    expect(booked).toBe(1);
  });
});
