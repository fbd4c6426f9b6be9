import { InvalidArgumentError } from '@skein/spec';
import type { ToolConflict } from '../errors/tool-error.js';
import { NameAllocator } from './name-allocator.js';
import { renameTool } from './rename-tool.js';
import type { Tool } from './tool.js';
import { sourceOf } from './tool-source.js';

// What a registration does with a name that is taken, by a registered tool or by an earlier tool
// of the same list. Pure functions of the list and of what the registry holds: nothing is
// registered here, so a refused list leaves the registry as it was.

type AnyTool = Tool<never>;
/** The tool registered under a name, if any. */
type Registered = (name: string) => AnyTool | undefined;

/** A tool registered under another name than its own (`onConflict: 'prefix'`). */
export interface RenamedTool {
  readonly from: string;
  readonly to: string;
  readonly source: string;
}

/**
 * Every clash, in the order its name first appears in the list, with the source of each tool
 * that claims it (a registered one first, as `registry (<source>)`).
 */
export function findConflicts(tools: readonly AnyTool[], registered: Registered): ToolConflict[] {
  // Source lists are built only for the names that clash: the common clash-free case allocates
  // nothing per tool beyond one Set entry.
  const seen = new Set<string>();
  const clashing = new Set<string>();
  for (const { name } of tools) {
    if (seen.has(name) || registered(name) !== undefined) clashing.add(name);
    seen.add(name);
  }
  if (clashing.size === 0) return [];
  const sources = new Map<string, string[]>();
  for (const tool of tools) {
    if (!clashing.has(tool.name)) continue;
    let list = sources.get(tool.name);
    if (!list) {
      const existing = registered(tool.name);
      list = existing ? [`registry (${sourceOf(existing)})`] : [];
      sources.set(tool.name, list);
    }
    list.push(sourceOf(tool));
  }
  return [...sources].map(([name, list]) => ({ name, sources: list }));
}

/** `onConflict: 'replace'`: one tool per name, the last of the list, at its name's first place. */
export function withReplacements(
  tools: readonly AnyTool[],
  registered: Registered,
): { readonly list: AnyTool[]; readonly replaced: string[] } {
  const byName = new Map<string, AnyTool>();
  const replaced = new Set<string>();
  for (const tool of tools) {
    if (byName.has(tool.name) || registered(tool.name) !== undefined) replaced.add(tool.name);
    byName.set(tool.name, tool);
  }
  return { list: [...byName.values()], replaced: [...replaced] };
}

/**
 * `onConflict: 'prefix'`: a tool whose name is taken is renamed `<prefix>_<name>` (numbered
 * `_2`, `_3`, … while that is taken too).
 */
export function withPrefixes(
  tools: readonly AnyTool[],
  registered: Registered,
  prefixOf: (tool: AnyTool) => string,
): { readonly list: AnyTool[]; readonly renamed: RenamedTool[] } {
  const names = new NameAllocator((name) => registered(name) !== undefined);
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
      throw new InvalidArgumentError(
        'prefix',
        `prefix must return a non-empty string (got ${JSON.stringify(prefix)} for tool "${tool.name}")`,
      );
    const name = names.allocate(`${prefix}_${tool.name}`);
    renamed.push({ from: tool.name, to: name, source: sourceOf(tool) });
    return renameTool(tool, name);
  });
  return { list, renamed };
}
