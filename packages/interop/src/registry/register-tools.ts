import {
  InvalidToolError,
  type Tool,
  type ToolConflict,
  ToolConflictError,
  type ToolRegistry,
} from '@skein/core';
import { InvalidInteropOptionError } from '../errors/invalid-interop-option-error.js';
import { NameAllocator } from './name-allocator.js';
import { renameTool } from './rename-tool.js';
import { prefixForSource, sourceOf } from './source-prefix.js';

/**
 * What to do when a name is taken (by a registered tool or by an earlier tool of the list):
 * - `error`: register nothing and throw one `ToolConflictError` listing every clash;
 * - `replace`: the later tool wins (over the registry and over earlier tools of the list);
 * - `prefix`: the later tool is registered as `<prefix>_<name>` (prefix derived from its source).
 */
export type ConflictStrategy = 'error' | 'replace' | 'prefix';

export interface RegisterToolsOptions {
  /** Default `error`. */
  readonly onConflict?: ConflictStrategy;
  /** With `prefix`: the prefix for a clashing tool; default: its `source` made name-safe. */
  readonly prefix?: (tool: Tool<never>) => string;
}

export interface RenamedTool {
  readonly from: string;
  readonly to: string;
  readonly source: string;
}

export interface RegisterToolsResult {
  /** Names now registered for the given tools, in list order (renamed ones under the new name). */
  readonly registered: readonly string[];
  /** With `prefix`: every tool registered under another name than its own. */
  readonly renamed: readonly RenamedTool[];
  /** With `replace`: names whose earlier tool (registered or earlier in the list) was replaced. */
  readonly replaced: readonly string[];
}

type AnyTool = Tool<never>;

const STRATEGIES: readonly ConflictStrategy[] = ['error', 'replace', 'prefix'];

function checkNames(tools: readonly AnyTool[]): void {
  if (!Array.isArray(tools))
    throw new InvalidInteropOptionError('registerTools', 'tools', 'must be an array of tools');
  tools.forEach((tool, index) => {
    if (typeof tool !== 'object' || tool === null)
      throw new InvalidToolError(`#${index}`, `list entry ${index} is not an object`);
    if (typeof tool.name !== 'string' || tool.name.length === 0)
      throw new InvalidToolError(`#${index}`, `list entry ${index} has no non-empty string name`);
  });
}

function findConflicts(registry: ToolRegistry, tools: readonly AnyTool[]): ToolConflict[] {
  // Source lists are built only for the names that clash: the common clash-free case allocates
  // nothing per tool beyond one Set entry.
  const seen = new Set<string>();
  const clashing = new Set<string>();
  for (const { name } of tools) {
    if (seen.has(name) || registry.has(name)) clashing.add(name);
    seen.add(name);
  }
  if (clashing.size === 0) return [];
  const sources = new Map<string, string[]>();
  for (const tool of tools) {
    if (!clashing.has(tool.name)) continue;
    let list = sources.get(tool.name);
    if (!list) {
      const existing = registry.get(tool.name);
      list = existing ? [`registry (${sourceOf(existing)})`] : [];
      sources.set(tool.name, list);
    }
    list.push(sourceOf(tool));
  }
  return [...sources].map(([name, list]) => ({ name, sources: list }));
}

function withReplacements(registry: ToolRegistry, tools: readonly AnyTool[]) {
  // A Map keeps the position of a name's first occurrence while its value becomes the last tool.
  const byName = new Map<string, AnyTool>();
  const replaced = new Set<string>();
  for (const tool of tools) {
    if (byName.has(tool.name) || registry.has(tool.name)) replaced.add(tool.name);
    byName.set(tool.name, tool);
  }
  return { list: [...byName.values()], replaced: [...replaced] };
}

function withPrefixes(
  registry: ToolRegistry,
  tools: readonly AnyTool[],
  prefixOf: (tool: AnyTool) => string,
) {
  const names = new NameAllocator((name) => registry.has(name));
  // First pass: the first tool to claim a free name keeps it, so a rename made for a later tool
  // can never take the original name of another tool of the list.
  const keeps = tools.map((tool) => {
    if (!names.isFree(tool.name)) return false;
    names.reserve(tool.name);
    return true;
  });
  const renamed: RenamedTool[] = [];
  const list = tools.map((tool, index) => {
    if (keeps[index]) return tool;
    const prefix = prefixOf(tool);
    if (typeof prefix !== 'string' || prefix.length === 0)
      throw new InvalidInteropOptionError(
        'registerTools',
        'prefix',
        `must return a non-empty string (got ${JSON.stringify(prefix)} for tool "${tool.name}")`,
      );
    const name = names.allocate(`${prefix}_${tool.name}`);
    renamed.push({ from: tool.name, to: name, source: sourceOf(tool) });
    return renameTool(tool, name);
  });
  return { list, renamed };
}

/**
 * Registers many tools from several sources at once, all or nothing, in time linear in the number
 * of tools. With `onConflict: 'error'` (the default) every clash is reported in one
 * `ToolConflictError` and the registry is left as it was.
 */
export function registerTools(
  registry: ToolRegistry,
  tools: readonly AnyTool[],
  options: RegisterToolsOptions = {},
): RegisterToolsResult {
  const strategy = options.onConflict ?? 'error';
  if (!STRATEGIES.includes(strategy))
    throw new InvalidInteropOptionError(
      'registerTools',
      'onConflict',
      `must be one of ${STRATEGIES.map((s) => `'${s}'`).join(', ')} (got ${JSON.stringify(strategy)})`,
    );
  if (options.prefix !== undefined && typeof options.prefix !== 'function')
    throw new InvalidInteropOptionError(
      'registerTools',
      'prefix',
      'must be a function of the tool',
    );
  checkNames(tools);

  if (strategy === 'replace') {
    const { list, replaced } = withReplacements(registry, tools);
    registry.registerMany(list, { replace: true });
    return { registered: list.map((t) => t.name), renamed: [], replaced };
  }
  if (strategy === 'prefix') {
    const prefixOf = options.prefix ?? ((tool: AnyTool) => prefixForSource(sourceOf(tool)));
    const { list, renamed } = withPrefixes(registry, tools, prefixOf);
    registry.registerMany(list);
    return { registered: list.map((t) => t.name), renamed, replaced: [] };
  }
  const conflicts = findConflicts(registry, tools);
  if (conflicts.length > 0)
    throw new ToolConflictError(
      conflicts,
      "Pass { onConflict: 'replace' } or { onConflict: 'prefix' } to resolve.",
    );
  registry.registerMany(tools);
  return { registered: tools.map((t) => t.name), renamed: [], replaced: [] };
}
