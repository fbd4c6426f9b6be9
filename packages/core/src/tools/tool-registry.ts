import { InvalidArgumentError } from '@skein/spec';
import { toolNotFound } from '../errors/not-found.js';
import { ToolError } from '../errors/tool-error.js';
import { checkTool } from './check-tool.js';
import {
  findConflicts,
  type RenamedTool,
  withPrefixes,
  withReplacements,
} from './conflict-strategies.js';
import type { Tool } from './tool.js';
import { prefixForSource, sourceOf } from './tool-source.js';

export { checkTool } from './check-tool.js';

/**
 * What to do when a name is taken (by a registered tool or by an earlier tool of the list):
 * - `error`: register nothing and throw one `ToolError` (`TOOL_CONFLICT`) listing every clash;
 * - `replace`: the later tool wins (over the registry and over earlier tools of the list);
 * - `prefix`: the later tool is registered as `<prefix>_<name>` (prefix derived from its source).
 */
export type ConflictStrategy = 'error' | 'replace' | 'prefix';

export interface RegisterOptions {
  /**
   * Replace a tool already registered under the same name instead of throwing (two tools of one
   * list with the same name still clash). `onConflict: 'replace'` also lets the later one win.
   */
  readonly replace?: boolean;
  /** Default `error` (with `replace: true`, clashes with registered tools are replaced). */
  readonly onConflict?: ConflictStrategy;
  /** With `prefix`: the prefix for a clashing tool; default: its `source` made name-safe. */
  readonly prefix?: (tool: Tool<never>) => string;
}

export interface RegistrationResult {
  /** Names now registered for the given tools, in list order (renamed ones under the new name). */
  readonly registered: readonly string[];
  /** With `prefix`: every tool registered under another name than its own. */
  readonly renamed: readonly RenamedTool[];
  /** With `replace`: names whose earlier tool (registered or earlier in the list) was replaced. */
  readonly replaced: readonly string[];
}

export type { RenamedTool } from './conflict-strategies.js';

// Tools are stored with their argument type erased: the registry hands them to the executor,
// which validates arguments against the schema before calling.
type AnyTool = Tool;

// What registration takes: a tool of any argument type. `execute` is a method, so its argument is
// bivariant and `Tool<WeatherArgs>` fits `Tool<never>` even when `WeatherArgs` is an interface
// (which, having no index signature, is not a `Record<string, unknown>`).
type ToolOfAnyArgs = Tool<never>;

const STRATEGIES: readonly ConflictStrategy[] = ['error', 'replace', 'prefix'];
const HINT = "Pass { onConflict: 'replace' } or { onConflict: 'prefix' } to resolve.";

function checkRegisterOptions(options: RegisterOptions): ConflictStrategy {
  const strategy = options.onConflict ?? 'error';
  if (!STRATEGIES.includes(strategy))
    throw new InvalidArgumentError(
      'onConflict',
      `onConflict must be one of ${STRATEGIES.map((s) => `'${s}'`).join(', ')} (got ${JSON.stringify(strategy)})`,
    );
  if (options.prefix !== undefined && typeof options.prefix !== 'function')
    throw new InvalidArgumentError('prefix', 'prefix must be a function of the tool');
  return strategy;
}

/**
 * The tools one engine instance knows, by name. One per engine (never a module singleton), so two
 * engines in one process cannot see each other's tools.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, AnyTool>();
  readonly #registered = (name: string): AnyTool | undefined => this.#tools.get(name);

  register(tool: ToolOfAnyArgs, options: RegisterOptions = {}): this {
    return this.registerMany([tool], options);
  }

  /** All or nothing: every tool is checked before any is registered; every clash is reported. */
  registerMany(tools: readonly ToolOfAnyArgs[], options: RegisterOptions = {}): this {
    this.registerAll(tools, options);
    return this;
  }

  /**
   * Like `registerMany`, in time linear in the number of tools, and says under which names the
   * tools went and which were renamed or replaced (with `onConflict`).
   */
  registerAll(tools: readonly ToolOfAnyArgs[], options: RegisterOptions = {}): RegistrationResult {
    const strategy = checkRegisterOptions(options);
    if (!Array.isArray(tools))
      throw new InvalidArgumentError('tools', 'tools must be an array of tools');
    for (const tool of tools) checkTool(tool);
    if (strategy === 'replace') {
      const { list, replaced } = withReplacements(tools, this.#registered);
      return this.#add(list, [], replaced);
    }
    if (strategy === 'prefix') {
      const prefixOf = options.prefix ?? ((tool) => prefixForSource(sourceOf(tool)));
      const { list, renamed } = withPrefixes(tools, this.#registered, prefixOf);
      return this.#add(list as AnyTool[], renamed, []);
    }
    const conflicts = findConflicts(tools, options.replace ? () => undefined : this.#registered);
    if (conflicts.length > 0) throw ToolError.conflict(conflicts, HINT);
    return this.#add(tools, [], []);
  }

  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  /** Like `get`, but a missing name is a `NotFoundError` (`TOOL_NOT_FOUND`). */
  require(name: string): AnyTool {
    const tool = this.#tools.get(name);
    if (!tool) throw toolNotFound(name, 'ToolRegistry');
    return tool;
  }

  has(name: string): boolean {
    return this.#tools.has(name);
  }

  unregister(name: string): boolean {
    return this.#tools.delete(name);
  }

  list(): AnyTool[] {
    return [...this.#tools.values()];
  }

  names(): string[] {
    return [...this.#tools.keys()];
  }

  get size(): number {
    return this.#tools.size;
  }

  #add(
    list: readonly AnyTool[],
    renamed: readonly RenamedTool[],
    replaced: readonly string[],
  ): RegistrationResult {
    for (const tool of list) this.#tools.set(tool.name, tool);
    return { registered: list.map((t) => t.name), renamed, replaced };
  }
}
