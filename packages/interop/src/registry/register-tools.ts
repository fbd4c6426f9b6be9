import {
  type ConflictStrategy,
  type RegistrationResult,
  type Tool,
  ToolError,
  type ToolRegistry,
} from '@skein/core';
import { InvalidInteropOptionError } from '../errors/invalid-interop-option-error.js';

export type { ConflictStrategy, RenamedTool } from '@skein/core';

export interface RegisterToolsOptions {
  /** Default `error`; see `ConflictStrategy`. */
  readonly onConflict?: ConflictStrategy;
  /** With `prefix`: the prefix for a clashing tool; default: its `source` made name-safe. */
  readonly prefix?: (tool: Tool<never>) => string;
}

/** The registry's `RegistrationResult`: names registered, renamed and replaced. */
export type RegisterToolsResult = RegistrationResult;

type AnyTool = Tool<never>;

const STRATEGIES: readonly ConflictStrategy[] = ['error', 'replace', 'prefix'];

// Interop's own wording for what the registry would also refuse, so callers of `registerTools`
// see `InvalidInteropOptionError` naming `registerTools`, and list entries named by position.
function checkOptions(options: RegisterToolsOptions): ConflictStrategy {
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
  return strategy;
}

function checkNames(tools: readonly AnyTool[]): void {
  if (!Array.isArray(tools))
    throw new InvalidInteropOptionError('registerTools', 'tools', 'must be an array of tools');
  tools.forEach((tool, index) => {
    if (typeof tool !== 'object' || tool === null)
      throw ToolError.invalidTool(`#${index}`, `list entry ${index} is not an object`);
    if (typeof tool.name !== 'string' || tool.name.length === 0)
      throw ToolError.invalidTool(`#${index}`, `list entry ${index} has no non-empty string name`);
  });
}

function checkedPrefix(prefix: (tool: AnyTool) => string): (tool: AnyTool) => string {
  return (tool) => {
    const value = prefix(tool);
    if (typeof value !== 'string' || value.length === 0)
      throw new InvalidInteropOptionError(
        'registerTools',
        'prefix',
        `must return a non-empty string (got ${JSON.stringify(value)} for tool "${tool.name}")`,
      );
    return value;
  };
}

/**
 * Registers many tools from several sources at once, all or nothing, in time linear in the number
 * of tools: the registry's `registerAll`, with interop's errors for bad options. With
 * `onConflict: 'error'` (the default) every clash is reported in one `ToolError` (`TOOL_CONFLICT`)
 * and the registry is left as it was.
 */
export function registerTools(
  registry: ToolRegistry,
  tools: readonly AnyTool[],
  options: RegisterToolsOptions = {},
): RegisterToolsResult {
  const onConflict = checkOptions(options);
  checkNames(tools);
  const prefix = options.prefix;
  return registry.registerAll(tools, {
    onConflict,
    ...(prefix !== undefined ? { prefix: checkedPrefix(prefix) } : {}),
  });
}
