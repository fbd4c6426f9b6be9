import { ToolError } from '../errors/tool-error.js';
import { schemaDialect } from './json-schema-dialect.js';
import type { Tool } from './tool.js';
import { timeoutProblem } from './tool-timeout.js';

/**
 * Refuses a tool the engine could not run (bad name, schema dialect, options) with a `ToolError`
 * (`INVALID_TOOL`).
 */
export function checkTool(tool: Tool): void {
  const name = typeof tool?.name === 'string' ? tool.name : String(tool?.name);
  if (typeof tool !== 'object' || tool === null) throw ToolError.invalidTool(name, 'not an object');
  if (typeof tool.name !== 'string' || tool.name.length === 0)
    throw ToolError.invalidTool(name, 'name must be a non-empty string');
  if (typeof tool.description !== 'string')
    throw ToolError.invalidTool(name, 'description must be a string');
  if (
    typeof tool.parameters !== 'object' ||
    tool.parameters === null ||
    Array.isArray(tool.parameters)
  )
    throw ToolError.invalidTool(name, 'parameters must be a JSON Schema object');
  if (typeof tool.execute !== 'function')
    throw ToolError.invalidTool(name, 'execute must be a function');
  // Checked here, not at the first call: a dialect ajv cannot read would fail every call.
  const dialect = schemaDialect(tool.parameters);
  if (!dialect.ok) throw ToolError.invalidTool(name, `parameters: ${dialect.problem}`);
  checkToolOptions(tool, name);
}

function checkToolOptions(tool: Tool, name: string): void {
  if (tool.timeoutMs !== undefined) {
    const problem = timeoutProblem('timeoutMs', tool.timeoutMs);
    if (problem) throw ToolError.invalidTool(name, problem);
  }
  for (const flag of ['ownsTimeout', 'validateArguments', 'strict'] as const)
    if (tool[flag] !== undefined && typeof tool[flag] !== 'boolean')
      throw ToolError.invalidTool(name, `${flag} must be a boolean`);
}
