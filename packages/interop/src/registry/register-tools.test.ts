import { tool } from '@openai/agents';
import { type Tool, ToolError, ToolRegistry } from '@skein/core';
import { isToolOutput, SkeinError } from '@skein/spec';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidInteropOptionError } from '../errors/invalid-interop-option-error.js';
import { fromMcpClient } from '../mcp/from-mcp-client.js';
import { fromFunctionTool } from '../openai-agents/from-function-tool.js';
import { connectInMemory, type InMemoryMcp } from '../test-support/in-memory-mcp.js';
import { toolContext } from '../test-support/tool-context.js';
import { registerTools } from './register-tools.js';

function localTool(name: string, answer = name): Tool {
  return {
    name,
    description: `local ${name}`,
    parameters: { type: 'object', properties: {} },
    execute: () => `local:${answer}`,
  };
}

function agentsTool(name: string) {
  return fromFunctionTool(
    tool({
      name,
      description: `agents ${name}`,
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: ({ a, b }) => `agents:${a * b}`,
    }),
  );
}

async function resultText(t: Tool, args: Record<string, unknown>): Promise<string> {
  const result = await t.execute(args, toolContext());
  return isToolOutput(result) ? result.content : String(result);
}

describe('registerTools with 70 tools from three sources', () => {
  let mcp: InMemoryMcp;
  let tools: Tool[];

  beforeEach(async () => {
    // 9 built-in fixture tools (add, weather, …) + 16 fillers = 25 MCP tools.
    mcp = await connectInMemory({ fillerTools: 16, pageSize: 10 });
    const fromMcp = await fromMcpClient(mcp.client);
    const fromAgents = [
      agentsTool('add'),
      ...Array.from({ length: 19 }, (_, i) => agentsTool(`agent_${i}`)),
    ];
    const local = [
      localTool('weather'),
      ...Array.from({ length: 24 }, (_, i) => localTool(`local_${i}`)),
    ];
    tools = [...local, ...fromAgents, ...fromMcp];
  });
  afterEach(async () => {
    await mcp.close();
  });

  it('has the expected mix', () => {
    expect(tools).toHaveLength(70);
    const sources = new Set(tools.map((t) => t.source ?? 'local'));
    expect([...sources].sort()).toEqual(['local', 'mcp:fixture', 'openai-agents']);
  });

  it('error: one TOOL_CONFLICT ToolError naming both clashes and their sources; registry unchanged', () => {
    const registry = new ToolRegistry().register(localTool('existing'));
    let caught: unknown;
    try {
      registerTools(registry, tools);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ToolError);
    const conflict = caught as ToolError;
    expect(conflict.code).toBe('TOOL_CONFLICT');
    expect(conflict.conflicts).toEqual([
      { name: 'weather', sources: ['local', 'mcp:fixture'] },
      { name: 'add', sources: ['openai-agents', 'mcp:fixture'] },
    ]);
    expect(conflict.message).toContain('"weather" (local, mcp:fixture)');
    expect(conflict.message).toContain('"add" (openai-agents, mcp:fixture)');
    expect(registry.names()).toEqual(['existing']);
  });

  it('replace: the later tool wins, 68 names registered', async () => {
    const registry = new ToolRegistry();
    const result = registerTools(registry, tools, { onConflict: 'replace' });
    expect(registry.size).toBe(68);
    expect([...result.replaced].sort()).toEqual(['add', 'weather']);
    expect(registry.get('add')?.source).toBe('mcp:fixture');
    expect(await resultText(registry.require('add') as Tool, { a: 2, b: 3 })).toBe('5');
    expect(registry.get('weather')?.source).toBe('mcp:fixture');
  });

  it('prefix: the later clashing tool is renamed after its source, all 70 registered', async () => {
    const registry = new ToolRegistry();
    const result = registerTools(registry, tools, { onConflict: 'prefix' });
    expect(registry.size).toBe(70);
    expect(result.renamed).toEqual([
      { from: 'add', to: 'mcp_fixture_add', source: 'mcp:fixture' },
      { from: 'weather', to: 'mcp_fixture_weather', source: 'mcp:fixture' },
    ]);
    expect(registry.get('add')?.source).toBe('openai-agents');
    expect(await resultText(registry.require('add') as Tool, { a: 2, b: 3 })).toBe('agents:6');
    // The renamed tool still calls the server's `add`.
    expect(await resultText(registry.require('mcp_fixture_add') as Tool, { a: 2, b: 3 })).toBe('5');
    expect(await resultText(registry.require('weather') as Tool, {})).toBe('local:weather');
  });
});

describe('registerTools', () => {
  it('registers a clash-free list and reports the names', () => {
    const registry = new ToolRegistry();
    const result = registerTools(registry, [localTool('a'), localTool('b')]);
    expect(result).toEqual({ registered: ['a', 'b'], renamed: [], replaced: [] });
    expect(registry.names()).toEqual(['a', 'b']);
  });

  it('error: a clash with an already registered tool names the registry', () => {
    const registry = new ToolRegistry().register({ ...localTool('a'), source: 'mcp:old' });
    expect(() => registerTools(registry, [localTool('a'), localTool('b')])).toThrowError(
      expect.objectContaining({
        conflicts: [{ name: 'a', sources: ['registry (mcp:old)', 'local'] }],
      }),
    );
    expect(registry.names()).toEqual(['a']);
  });

  it('error: a name taken in the registry and twice in the list lists all three', () => {
    const registry = new ToolRegistry().register(localTool('a'));
    expect(() =>
      registerTools(registry, [
        { ...localTool('a'), source: 'x' },
        { ...localTool('a'), source: 'y' },
      ]),
    ).toThrowError(
      expect.objectContaining({
        conflicts: [{ name: 'a', sources: ['registry (local)', 'x', 'y'] }],
      }),
    );
  });

  it('replace: replaces a registered tool', async () => {
    const registry = new ToolRegistry().register(localTool('a', 'old'));
    const result = registerTools(registry, [localTool('a', 'new')], { onConflict: 'replace' });
    expect(result.replaced).toEqual(['a']);
    expect(await resultText(registry.require('a') as Tool, {})).toBe('local:new');
  });

  it('prefix: never renames a tool onto a name another tool of the list has', () => {
    const registry = new ToolRegistry().register(localTool('x'));
    const result = registerTools(
      registry,
      [
        { ...localTool('x'), source: 's' },
        { ...localTool('s_x'), source: 'other' },
      ],
      { onConflict: 'prefix' },
    );
    // `s_x` belongs to the second tool, so the first clashing `x` becomes `s_x_2`.
    expect(result.renamed).toEqual([{ from: 'x', to: 's_x_2', source: 's' }]);
    expect(registry.names().sort()).toEqual(['s_x', 's_x_2', 'x']);
  });

  it('prefix: many clashes on one name get numbered suffixes deterministically', () => {
    const registry = new ToolRegistry();
    const list = Array.from({ length: 4 }, () => ({ ...localTool('dup'), source: 'mcp:srv' }));
    const result = registerTools(registry, list, { onConflict: 'prefix' });
    expect(result.registered).toEqual(['dup', 'mcp_srv_dup', 'mcp_srv_dup_2', 'mcp_srv_dup_3']);
  });

  it('prefix: a custom prefix function', () => {
    const registry = new ToolRegistry().register(localTool('a'));
    const result = registerTools(registry, [localTool('a')], {
      onConflict: 'prefix',
      prefix: () => 'mine',
    });
    expect(result.registered).toEqual(['mine_a']);
  });

  it('prefix: a renamed class-instance tool keeps its methods and `this`', async () => {
    class Counter implements Tool {
      readonly name = 'count';
      readonly description = 'counts';
      readonly parameters = { type: 'object' };
      readonly source = 'class';
      #calls = 0;
      execute(): string {
        this.#calls += 1;
        return `calls=${this.#calls}`;
      }
      isEnabled(): boolean {
        return this.#calls < 5;
      }
    }
    const registry = new ToolRegistry().register(localTool('count'));
    registerTools(registry, [new Counter()], { onConflict: 'prefix' });
    const renamed = registry.require('class_count') as Tool;
    expect(await resultText(renamed, {})).toBe('calls=1');
    expect(await resultText(renamed, {})).toBe('calls=2');
    expect(await renamed.isEnabled?.({ threadId: 't', variables: {} })).toBe(true);
  });

  it('rejects an unknown strategy, a bad prefix and nameless tools, leaving the registry as it was', () => {
    const registry = new ToolRegistry().register(localTool('a'));
    expect(() =>
      registerTools(registry, [localTool('b')], { onConflict: 'merge' as never }),
    ).toThrowError(InvalidInteropOptionError);
    expect(() =>
      registerTools(registry, [localTool('a')], { onConflict: 'prefix', prefix: () => '' }),
    ).toThrowError(expect.objectContaining({ code: 'INVALID_INTEROP_OPTION' }));
    expect(() =>
      registerTools(registry, [localTool('b'), { ...localTool('c'), name: '' }]),
    ).toThrowError(expect.objectContaining({ constructor: ToolError, code: 'INVALID_TOOL' }));
    // A tool the registry itself refuses (no execute) stops the whole list.
    const broken = { ...localTool('d'), execute: undefined } as unknown as Tool;
    expect(() => registerTools(registry, [localTool('e'), broken])).toThrowError(
      expect.objectContaining({ code: 'INVALID_TOOL' }),
    );
    expect(registry.names()).toEqual(['a']);
    expect(SkeinError.isInstance(new InvalidInteropOptionError('f', 'o', 'p'))).toBe(true);
  });
});
