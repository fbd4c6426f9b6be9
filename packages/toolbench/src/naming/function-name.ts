import { pyTakeLast } from '../python/python-text.js';
import { renameReservedWord, standardizeToolBenchName } from './standardize.js';

/** The longest function name the reference keeps; the cut removes the start, not the end. */
export const MAX_FUNCTION_NAME_LENGTH = 64;

const SEPARATOR = '_for_';

/** The API part of a function name: `change_name(standardize(api))`. */
export function toolBenchApiName(apiName: string): string {
  return renameReservedWord(standardizeToolBenchName(apiName));
}

/**
 * `<api>_for_<tool>` as the reference builds it (rapidapi.py L217-219): the API name standardized
 * with reserved words renamed, `tool` used as given (the standardized tool name, i.e. the tool
 * file's stem), and only the last 64 characters kept.
 */
export function toolBenchFunctionName(apiName: string, toolName: string): string {
  return pyTakeLast(
    `${toolBenchApiName(apiName)}${SEPARATOR}${toolName}`,
    MAX_FUNCTION_NAME_LENGTH,
  );
}

export interface SplitFunctionName {
  readonly api: string;
  readonly tool: string;
}

/**
 * Splits a function name at its last `_for_`. A name cut to 64 characters keeps its tool part
 * whole and loses the start of its API part. Names without `_for_` (such as `Finish`) give
 * `undefined`.
 */
export function splitToolBenchFunctionName(name: string): SplitFunctionName | undefined {
  const at = name.lastIndexOf(SEPARATOR);
  if (at < 0) return undefined;
  return { api: name.slice(0, at), tool: name.slice(at + SEPARATOR.length) };
}
