import { describe, expect, it } from 'vitest';
import { ToolError } from '../errors/tool-error.js';
import { errorWith } from '../test-support/error-with.js';
import type { Tool } from './tool.js';
import { ToolRegistry } from './tool-registry.js';

const tool = (name: string, source?: string): Tool => ({
  name,
  description: `${name} tool`,
  parameters: { type: 'object' },
  execute: () => name,
  ...(source ? { source } : {}),
});

describe('ToolRegistry', () => {
  it('registers, gets, lists and unregisters', () => {
    const registry = new ToolRegistry().register(tool('a')).register(tool('b'));
    expect(registry.has('a')).toBe(true);
    expect(registry.get('b')?.name).toBe('b');
    expect(registry.names()).toEqual(['a', 'b']);
    expect(registry.list()).toHaveLength(2);
    expect(registry.unregister('a')).toBe(true);
    expect(registry.unregister('a')).toBe(false);
    expect(() => registry.require('a')).toThrow(/"a" is not registered/);
  });

  it('throws a TOOL_CONFLICT ToolError on a second registration unless replace is asked', () => {
    const registry = new ToolRegistry().register(tool('a', 'local'));
    expect(() => registry.register(tool('a', 'mcp:x'))).toThrow(
      errorWith(ToolError, 'TOOL_CONFLICT'),
    );
    registry.register({ ...tool('a', 'mcp:x'), description: 'new' }, { replace: true });
    expect(registry.get('a')?.description).toBe('new');
  });

  it('registerMany is all or nothing and reports every clash with its sources', () => {
    const registry = new ToolRegistry().register(tool('taken', 'local'));
    let error: ToolError | undefined;
    try {
      registry.registerMany([
        tool('fresh'),
        tool('taken', 'mcp:a'),
        tool('dup', 'x'),
        tool('dup', 'y'),
      ]);
    } catch (e) {
      error = e as ToolError;
    }
    expect(error).toBeInstanceOf(ToolError);
    expect(error?.code).toBe('TOOL_CONFLICT');
    expect(error?.conflicts).toEqual([
      { name: 'taken', sources: ['registry (local)', 'mcp:a'] },
      { name: 'dup', sources: ['x', 'y'] },
    ]);
    expect(registry.names()).toEqual(['taken']);
  });

  it('rejects malformed tools with an INVALID_TOOL ToolError, registering nothing', () => {
    const registry = new ToolRegistry();
    expect(() =>
      registry.registerMany([tool('ok'), { ...tool('bad'), parameters: 'no' as never }]),
    ).toThrow(errorWith(ToolError, 'INVALID_TOOL'));
    expect(() => registry.register({ ...tool(''), name: '' })).toThrow(/non-empty/);
    expect(() =>
      registry.register({ name: 'x', description: 'd', parameters: {} } as never),
    ).toThrow(/execute/);
    expect(registry.size).toBe(0);
  });

  it('refuses a schema dialect it cannot validate at registration, naming the dialect', () => {
    const registry = new ToolRegistry();
    const old = {
      ...tool('old'),
      parameters: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' },
    } as Tool;
    let error: unknown;
    try {
      registry.registerMany([tool('fine'), old]);
    } catch (e) {
      error = e;
    }
    expect(error).toEqual(errorWith(ToolError, 'INVALID_TOOL'));
    expect((error as ToolError).message).toMatch(/draft-04.*2020-12/s);
    expect(registry.size).toBe(0);
    for (const $schema of [
      'https://json-schema.org/draft/2020-12/schema',
      'https://json-schema.org/draft/2019-09/schema',
      'http://json-schema.org/draft-07/schema#',
    ])
      registry.register({ ...tool($schema), parameters: { $schema, type: 'object' } } as Tool);
    expect(registry.size).toBe(3);
  });

  it('refuses a timeoutMs outside 1..2^31-1 ms, and a non-boolean ownsTimeout', () => {
    const registry = new ToolRegistry();
    for (const timeoutMs of [2 ** 31, -1, Number.NaN, 0, Number.POSITIVE_INFINITY, '5' as never])
      expect(() => registry.register({ ...tool('slow'), timeoutMs }), String(timeoutMs)).toThrow(
        /timeoutMs must be a number from 1 to 2147483647/,
      );
    expect(() => registry.register({ ...tool('slow'), ownsTimeout: 'yes' as never })).toThrow(
      errorWith(ToolError, 'INVALID_TOOL'),
    );
    expect(registry.size).toBe(0);
    registry.register({ ...tool('slow'), timeoutMs: 2 ** 31 - 1, ownsTimeout: true });
    expect(registry.get('slow')?.timeoutMs).toBe(2 ** 31 - 1);
  });

  it('two registries never share tools', () => {
    const one = new ToolRegistry().register(tool('a'));
    const two = new ToolRegistry();
    expect(two.has('a')).toBe(false);
    expect(one.has('a')).toBe(true);
  });
});
