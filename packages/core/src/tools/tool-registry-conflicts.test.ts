import { describe, expect, it } from 'vitest';
import { ToolError } from '../errors/tool-error.js';
import type { Tool } from './tool.js';
import { ToolRegistry } from './tool-registry.js';
import { prefixForSource } from './tool-source.js';

const tool = (name: string, source?: string, answer = name): Tool => ({
  name,
  description: `${name} tool`,
  parameters: { type: 'object' },
  execute: () => answer,
  ...(source ? { source } : {}),
});

const run = (registry: ToolRegistry, name: string) =>
  registry.require(name).execute({}, undefined as never);

describe('ToolRegistry name-conflict strategies', () => {
  it('error (the default): one ToolError (TOOL_CONFLICT), in order of first appearance, naming how to resolve', () => {
    const registry = new ToolRegistry().register(tool('b', 'old'));
    let error: unknown;
    try {
      registry.registerAll([tool('a', 'x'), tool('b', 'y'), tool('a', 'z')]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ToolError);
    expect((error as ToolError).code).toBe('TOOL_CONFLICT');
    expect((error as ToolError).conflicts).toEqual([
      { name: 'a', sources: ['x', 'z'] },
      { name: 'b', sources: ['registry (old)', 'y'] },
    ]);
    expect((error as Error).message).toMatch(/onConflict: 'replace'.*onConflict: 'prefix'/);
    expect(registry.names()).toEqual(['b']);
  });

  it('replace: the last tool of a name wins, over the registry and the list', () => {
    const registry = new ToolRegistry().register(tool('a', 'old', 'old'));
    const result = registry.registerAll(
      [tool('a', 'x', 'first'), tool('b'), tool('a', 'y', 'last')],
      { onConflict: 'replace' },
    );
    expect(result).toEqual({ registered: ['a', 'b'], renamed: [], replaced: ['a'] });
    expect(run(registry, 'a')).toBe('last');
  });

  it('prefix: clashing tools are renamed after their source, first claimants keep their names', () => {
    const registry = new ToolRegistry().register(tool('a'));
    const result = registry.registerAll([tool('a', 'mcp:srv'), tool('a', 'mcp:srv'), tool('c')], {
      onConflict: 'prefix',
    });
    expect(result.registered).toEqual(['mcp_srv_a', 'mcp_srv_a_2', 'c']);
    expect(result.renamed).toEqual([
      { from: 'a', to: 'mcp_srv_a', source: 'mcp:srv' },
      { from: 'a', to: 'mcp_srv_a_2', source: 'mcp:srv' },
    ]);
    expect(run(registry, 'mcp_srv_a_2')).toBe('a');
    // The chainable methods take the same option.
    registry.register(tool('c', 'lib'), { onConflict: 'prefix', prefix: () => 'mine' });
    expect(registry.has('mine_c')).toBe(true);
  });

  it('refuses an unknown strategy, a prefix that is not a function or gives no name, changing nothing', () => {
    const registry = new ToolRegistry().register(tool('a'));
    expect(() => registry.registerAll([tool('b')], { onConflict: 'merge' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'onConflict' }),
    );
    expect(() => registry.registerAll([tool('a')], { prefix: 'p' as never })).toThrow(
      /prefix must be a function/,
    );
    expect(() =>
      registry.registerAll([tool('b'), tool('a')], { onConflict: 'prefix', prefix: () => '' }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', argument: 'prefix' }));
    expect(registry.names()).toEqual(['a']);
  });

  it('derives name-safe prefixes from sources', () => {
    expect(prefixForSource('mcp:github')).toBe('mcp_github');
    expect(prefixForSource('::')).toBe('tool');
  });
});
