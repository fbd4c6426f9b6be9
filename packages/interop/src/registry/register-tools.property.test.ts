import { type Tool, ToolError, ToolRegistry } from '@skein/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { registerTools } from './register-tools.js';

// Few distinct names and sources, so clashes (and prefix collisions such as `b_a`) are common.
const nameArb = fc.constantFrom('a', 'b', 'c', 'b_a', 'a_b', 'c_a');
const sourceArb = fc.constantFrom('a', 'b', 'c', 'mcp:b');
const toolArb = fc.record({ name: nameArb, source: sourceArb });

function makeTool(spec: { name: string; source: string }, index: number): Tool {
  return {
    ...spec,
    description: `#${index}`,
    parameters: { type: 'object' },
    execute: () => index,
  };
}

function setup(existing: string[], specs: { name: string; source: string }[]) {
  const registry = new ToolRegistry();
  for (const name of new Set(existing))
    registry.register({ ...makeTool({ name, source: 'old' }, -1) });
  return { registry, tools: specs.map(makeTool) };
}

describe('registerTools (properties)', () => {
  it('error: throws exactly when some name is taken, and then changes nothing', () => {
    fc.assert(
      fc.property(
        fc.array(nameArb, { maxLength: 3 }),
        fc.array(toolArb, { maxLength: 12 }),
        (existing, specs) => {
          const { registry, tools } = setup(existing, specs);
          const before = registry.list();
          const names = specs.map((s) => s.name);
          const clashing = new Set(
            names.filter((n, i) => names.indexOf(n) !== i || registry.has(n)),
          );
          try {
            registerTools(registry, tools);
            expect(clashing.size).toBe(0);
            expect(registry.size).toBe(before.length + tools.length);
          } catch (error) {
            expect(error).toBeInstanceOf(ToolError);
            expect((error as ToolError).code).toBe('TOOL_CONFLICT');
            const reported = (error as ToolError).conflicts?.map((c) => c.name);
            expect(new Set(reported)).toEqual(clashing);
            expect(registry.list()).toEqual(before);
          }
        },
      ),
    );
  });

  it('prefix: registers every tool under a distinct new name, first claimants keep theirs', () => {
    fc.assert(
      fc.property(
        fc.array(nameArb, { maxLength: 3 }),
        fc.array(toolArb, { maxLength: 12 }),
        (existing, specs) => {
          const { registry, tools } = setup(existing, specs);
          const before = registry.list();
          const result = registerTools(registry, tools, { onConflict: 'prefix' });
          expect(new Set(result.registered).size).toBe(tools.length);
          expect(registry.size).toBe(before.length + tools.length);
          // Tools already registered are untouched.
          for (const old of before) expect(registry.get(old.name)).toBe(old);
          // Each registered tool runs the tool it was made from.
          result.registered.forEach((name, index) => {
            expect(registry.require(name).execute(undefined as never, undefined as never)).toBe(
              index,
            );
          });
          // A free name is kept by the first tool that claims it.
          const claimed = new Set(before.map((t) => t.name));
          tools.forEach((tool, index) => {
            if (!claimed.has(tool.name)) {
              expect(result.registered[index]).toBe(tool.name);
              claimed.add(tool.name);
            }
          });
          expect(result.renamed).toHaveLength(
            tools.length - result.registered.filter((n, i) => n === tools[i]?.name).length,
          );
        },
      ),
    );
  });

  it('replace: one tool per name, the last one of the list', () => {
    fc.assert(
      fc.property(
        fc.array(nameArb, { maxLength: 3 }),
        fc.array(toolArb, { maxLength: 12 }),
        (existing, specs) => {
          const { registry, tools } = setup(existing, specs);
          registerTools(registry, tools, { onConflict: 'replace' });
          const expected = new Set([...existing, ...specs.map((s) => s.name)]);
          expect(new Set(registry.names())).toEqual(expected);
          for (const name of new Set(specs.map((s) => s.name))) {
            const last = specs.map((s) => s.name).lastIndexOf(name);
            expect(registry.require(name).execute(undefined as never, undefined as never)).toBe(
              last,
            );
          }
        },
      ),
    );
  });
});
