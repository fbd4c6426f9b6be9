import type { SkeinError } from '@skein/spec';
import { isToolOutput } from '@skein/spec';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConnectionError } from '../errors/mcp-connection-error.js';
import { connectInMemory, type InMemoryMcp } from '../test-support/in-memory-mcp.js';
import { toolContext } from '../test-support/tool-context.js';
import { type McpToolsChange, watchMcpTools } from './watch-mcp-tools.js';

let open: InMemoryMcp | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

function nextChange(watch: Awaited<ReturnType<typeof watchMcpTools>>): Promise<McpToolsChange> {
  return new Promise((resolve) => watch.once('change', resolve));
}

const names = (tools: readonly { name: string }[]) => tools.map((t) => t.name);

describe('watchMcpTools', () => {
  it('starts with every tool (all pages) and follows additions, removals and updates', async () => {
    open = await connectInMemory({ fillerTools: 5, pageSize: 4 });
    const { client, fixture } = open;
    const watch = await watchMcpTools(client, { exclude: ['crash'] });
    expect(watch.tools).toHaveLength(13);
    const addBefore = watch.tools.find((t) => t.name === 'add');

    let change = nextChange(watch);
    fixture.addTool('translate', 'Translates text');
    expect(names((await change).added)).toEqual(['translate']);
    expect(names((await change).tools)).toContain('translate');

    change = nextChange(watch);
    fixture.removeTool('tool_002');
    expect(names((await change).removed)).toEqual(['tool_002']);

    change = nextChange(watch);
    fixture.updateTool('translate', 'Translates text between 40 languages');
    const updated = await change;
    expect(names(updated.updated)).toEqual(['translate']);
    expect(updated.updated[0]?.description).toBe('Translates text between 40 languages');

    // Unchanged tools are the same objects: nothing to re-register for them.
    expect(watch.tools.find((t) => t.name === 'add')).toBe(addBefore);
    expect(watch.tools).toHaveLength(13);
    const translated = await watch.tools
      .find((t) => t.name === 'translate')
      ?.execute({ value: 'hi' }, toolContext());
    expect(isToolOutput(translated) && translated.content).toBe('translate:hi');
    watch.close();
  });

  it('folds a burst of notifications into at most one more refresh', async () => {
    open = await connectInMemory({ pageSize: 100 });
    const { client, fixture } = open;
    const watch = await watchMcpTools(client);
    const requestsBefore = fixture.cursorsSeen.length;
    const added = new Set<string>();
    const settled = new Promise<void>((resolve) =>
      watch.on('change', (change) => {
        for (const t of change.added) {
          expect(added.has(t.name)).toBe(false);
          added.add(t.name);
        }
        if (added.size === 5) resolve();
      }),
    );
    for (let i = 0; i < 5; i++) fixture.addTool(`burst_${i}`, `burst ${i}`);
    await settled;
    expect([...added].sort()).toEqual(['burst_0', 'burst_1', 'burst_2', 'burst_3', 'burst_4']);
    expect(fixture.cursorsSeen.length - requestsBefore).toBeLessThanOrEqual(2);
    watch.close();
  });

  it('a refresh that fails after a notification is an error event; the last list stays', async () => {
    open = await connectInMemory();
    const { client, fixture } = open;
    const watch = await watchMcpTools(client);
    const before = watch.tools;
    const failed = new Promise<SkeinError>((resolve) => watch.once('error', resolve));
    fixture.addTool('late', 'late');
    await fixture.mcp.close();
    const error = await failed;
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(watch.tools).toEqual(before);
    await expect(watch.refresh()).rejects.toThrowError(McpConnectionError);
    watch.close();
  });

  it('after close it stops listening', async () => {
    open = await connectInMemory();
    const { client, fixture } = open;
    const watch = await watchMcpTools(client);
    const count = watch.tools.length;
    watch.close();
    expect(watch.closed).toBe(true);
    fixture.addTool('ignored', 'ignored');
    // A round trip to the server: the notification, if any were handled, would have landed by now.
    await client.ping();
    expect(watch.tools).toHaveLength(count);
    expect(await watch.refresh()).toHaveLength(count);
  });

  it('a first listing that fails rejects with a typed error', async () => {
    open = await connectInMemory();
    const { client } = open;
    await open.fixture.mcp.close();
    await expect(watchMcpTools(client)).rejects.toThrowError(McpConnectionError);
  });
});
