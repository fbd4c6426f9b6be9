import { ToolBenchError } from '../errors/toolbench-error.js';
import type { ToolBenchQuery } from './types.js';

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkOptionalString(value: unknown, path: string): void {
  if (value !== undefined && value !== null && typeof value !== 'string')
    throw ToolBenchError.invalidQuery(path, `expected a string, got ${typeof value}`);
}

function checkParameters(value: unknown, path: string): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value)) throw ToolBenchError.invalidQuery(path, 'expected an array');
  value.forEach((parameter, i) => {
    const at = `${path}[${i}]`;
    if (!isRecord(parameter)) throw ToolBenchError.invalidQuery(at, 'expected an object');
    if (typeof parameter.name !== 'string')
      throw ToolBenchError.invalidQuery(`${at}.name`, 'expected a string');
    checkOptionalString(parameter.type, `${at}.type`);
    checkOptionalString(parameter.description, `${at}.description`);
  });
}

/**
 * Checks that `value` has the shape of a benchmark query (full or minimal form) and returns it
 * typed. Throws `ToolBenchError` (`TOOLBENCH_INVALID_QUERY`) naming the first wrong
 * field.
 */
export function validateToolBenchQuery(value: unknown, where = 'query'): ToolBenchQuery {
  if (!isRecord(value)) throw ToolBenchError.invalidQuery(where, 'expected an object');
  if (typeof value.query !== 'string')
    throw ToolBenchError.invalidQuery(`${where}.query`, 'expected a string');
  if (!Array.isArray(value.api_list))
    throw ToolBenchError.invalidQuery(`${where}.api_list`, 'expected an array');
  value.api_list.forEach((api, i) => {
    const at = `${where}.api_list[${i}]`;
    if (!isRecord(api)) throw ToolBenchError.invalidQuery(at, 'expected an object');
    for (const key of ['tool_name', 'api_name'] as const) {
      const name = api[key];
      if (typeof name !== 'string' || name.length === 0)
        throw ToolBenchError.invalidQuery(`${at}.${key}`, 'expected a non-empty string');
    }
    checkOptionalString(api.category_name, `${at}.category_name`);
    checkOptionalString(api.api_description, `${at}.api_description`);
    checkParameters(api.required_parameters, `${at}.required_parameters`);
    checkParameters(api.optional_parameters, `${at}.optional_parameters`);
  });
  return value as unknown as ToolBenchQuery;
}
