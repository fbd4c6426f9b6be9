import { InvalidToolError } from '../errors/invalid-tool-error.js';
import { type ToolConflict, ToolConflictError } from '../errors/tool-conflict-error.js';
import { ToolNotFoundError } from '../errors/tool-not-found-error.js';
import { schemaDialect } from './json-schema-dialect.js';
import type { Tool } from './tool.js';
import { timeoutProblem } from './tool-timeout.js';

export interface RegisterOptions {
  /** Replace a tool already registered under the same name instead of throwing. */
  readonly replace?: boolean;
}

// Tools are stored with their argument type erased: the registry hands them to the executor,
// which validates arguments against the schema before calling.
type AnyTool = Tool;

/** Refuses a tool the engine could not run (bad name, schema dialect, options) with `InvalidToolError`. */
export function checkTool(tool: AnyTool): void {
  const name = typeof tool?.name === 'string' ? tool.name : String(tool?.name);
  if (typeof tool !== 'object' || tool === null) throw new InvalidToolError(name, 'not an object');
  if (typeof tool.name !== 'string' || tool.name.length === 0)
    throw new InvalidToolError(name, 'name must be a non-empty string');
  if (typeof tool.description !== 'string')
    throw new InvalidToolError(name, 'description must be a string');
  if (
    typeof tool.parameters !== 'object' ||
    tool.parameters === null ||
    Array.isArray(tool.parameters)
  )
    throw new InvalidToolError(name, 'parameters must be a JSON Schema object');
  if (typeof tool.execute !== 'function')
    throw new InvalidToolError(name, 'execute must be a function');
  // Checked here, not at the first call: a dialect ajv cannot read would fail every call.
  const dialect = schemaDialect(tool.parameters);
  if (!dialect.ok) throw new InvalidToolError(name, `parameters: ${dialect.problem}`);
  checkToolOptions(tool, name);
}

function checkToolOptions(tool: AnyTool, name: string): void {
  if (tool.timeoutMs !== undefined) {
    const problem = timeoutProblem('timeoutMs', tool.timeoutMs);
    if (problem) throw new InvalidToolError(name, problem);
  }
  for (const flag of ['ownsTimeout', 'validateArguments', 'strict'] as const)
    if (tool[flag] !== undefined && typeof tool[flag] !== 'boolean')
      throw new InvalidToolError(name, `${flag} must be a boolean`);
}

function sourceOf(tool: AnyTool): string {
  return tool.source ?? 'local';
}

/**
 * The tools one engine instance knows, by name. One per engine (never a module singleton), so two
 * engines in one process cannot see each other's tools.
 */
export class ToolRegistry {
  readonly #tools = new Map<string, AnyTool>();

  register(tool: Tool, options: RegisterOptions = {}): this {
    return this.registerMany([tool], options);
  }

  /** All or nothing: every tool is checked before any is registered; every clash is reported. */
  registerMany(tools: readonly Tool[], options: RegisterOptions = {}): this {
    const seen = new Map<string, AnyTool>();
    const clashes = new Map<string, string[]>();
    for (const tool of tools) {
      checkTool(tool);
      const earlier = seen.get(tool.name);
      const existing = this.#tools.get(tool.name);
      if (earlier) {
        const sources = clashes.get(tool.name) ?? [sourceOf(earlier)];
        sources.push(sourceOf(tool));
        clashes.set(tool.name, sources);
      } else if (existing && !options.replace) {
        clashes.set(tool.name, [`registry (${sourceOf(existing)})`, sourceOf(tool)]);
      }
      seen.set(tool.name, tool);
    }
    if (clashes.size > 0) {
      const conflicts: ToolConflict[] = [...clashes].map(([name, sources]) => ({ name, sources }));
      throw new ToolConflictError(conflicts);
    }
    for (const tool of tools) this.#tools.set(tool.name, tool);
    return this;
  }

  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  /** Like `get`, but a missing name is a `ToolNotFoundError`. */
  require(name: string): AnyTool {
    const tool = this.#tools.get(name);
    if (!tool) throw new ToolNotFoundError(name, 'ToolRegistry');
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
}
