import { ToolBenchError } from '../errors/toolbench-error.js';
import { MAX_FUNCTION_NAME_LENGTH, toolBenchApiName } from '../naming/function-name.js';
import { renameReservedWord, standardizeToolBenchName } from '../naming/standardize.js';
import { pyStrip, pyTake, pyTakeLast } from '../python/python-text.js';
import { validateToolBenchQuery } from './query-validation.js';
import type {
  ToolBenchApi,
  ToolBenchApiParameter,
  ToolBenchFunction,
  ToolBenchParameterProperty,
  ToolBenchQuery,
} from './types.js';

export interface ToolBenchFunctionOptions {
  /**
   * The standardized tool name (the reference uses the tool file's stem). Default:
   * `standardizeToolBenchName(api.tool_name)`, which is the stem for the tools in the benchmark.
   */
  readonly toolName?: string;
  /**
   * Start `required` and `optional` with an empty-string entry, as the current StableToolBench
   * code does (`"required": ["", "q"]`). Default false: the lists of the example answer files and
   * of ToolLLaMA's training data, which are also what the converted-answer files carry.
   */
  readonly emptyNamePlaceholders?: boolean;
}

export interface ToolBenchFunctionsOptions {
  /** Query tool name (as written in `api_list`) to standardized tool name, where they differ. */
  readonly toolNames?: Readonly<Record<string, string>>;
  readonly emptyNamePlaceholders?: boolean;
}

const DESCRIPTION_LIMIT = 256;
const TYPE_MAP: ReadonlyMap<string, string> = new Map([
  ['NUMBER', 'integer'],
  ['STRING', 'string'],
  ['BOOLEAN', 'boolean'],
]);

function property(parameter: ToolBenchApiParameter): ToolBenchParameterProperty {
  const type = (parameter.type !== undefined && TYPE_MAP.get(parameter.type)) || 'string';
  const description = pyTake(parameter.description ?? '', DESCRIPTION_LIMIT);
  // `len(str(default)) != 0`: only an empty string (or no default at all) leaves the example out.
  const example = parameter.default;
  if (example === undefined || example === '') return { type, description };
  return { type, description, example_value: example };
}

/**
 * The function the model is offered for one API, built as rapidapi.py L193-278 builds it: name
 * `<api>_for_<tool>` cut to its last 64 characters, the fixed description sentence plus the API
 * description (API name replaced by the function name, 256 characters), parameter types mapped,
 * and optional parameters listed only when the API has a required one (a quirk of the reference).
 */
export function toolBenchFunction(
  api: ToolBenchApi,
  options: ToolBenchFunctionOptions = {},
): ToolBenchFunction {
  const toolName = options.toolName ?? standardizeToolBenchName(api.tool_name);
  const name = pyTakeLast(
    `${toolBenchApiName(api.api_name)}_for_${toolName}`,
    MAX_FUNCTION_NAME_LENGTH,
  );
  let description = `This is the subfunction for tool "${toolName}", you can use this tool.`;
  const apiDescription = pyStrip(api.api_description ?? '');
  if (apiDescription !== '') {
    const text = pyTake(apiDescription.replaceAll(api.api_name, name), DESCRIPTION_LIMIT);
    description += `The description of this function is: "${text}"`;
  }
  const properties: Record<string, ToolBenchParameterProperty> = {};
  const placeholder = options.emptyNamePlaceholders ? [''] : [];
  const required: string[] = [...placeholder];
  const optional: string[] = [...placeholder];
  const requiredParameters = api.required_parameters ?? [];
  if (requiredParameters.length > 0) {
    for (const parameter of requiredParameters) {
      const key = renameReservedWord(standardizeToolBenchName(parameter.name));
      properties[key] = property(parameter);
      required.push(key);
    }
    for (const parameter of api.optional_parameters ?? []) {
      const key = renameReservedWord(standardizeToolBenchName(parameter.name));
      properties[key] = property(parameter);
      optional.push(key);
    }
  }
  return { name, description, parameters: { type: 'object', properties, required, optional } };
}

/**
 * The functions of a query's `api_list`, in list order (without `Finish`). Throws
 * `ToolBenchError`: `TOOLBENCH_INVALID_QUERY` for a malformed query,
 * `TOOLBENCH_DUPLICATE_FUNCTION` when two APIs end up with one name.
 */
export function toolBenchFunctions(
  query: ToolBenchQuery,
  options: ToolBenchFunctionsOptions = {},
): ToolBenchFunction[] {
  validateToolBenchQuery(query);
  const seen = new Map<string, string>();
  return query.api_list.map((api, i) => {
    const fn = toolBenchFunction(api, {
      toolName: options.toolNames?.[api.tool_name],
      emptyNamePlaceholders: options.emptyNamePlaceholders,
    });
    const path = `query.api_list[${i}]`;
    const earlier = seen.get(fn.name);
    if (earlier !== undefined) throw ToolBenchError.duplicateFunction(fn.name, earlier, path);
    seen.set(fn.name, path);
    return fn;
  });
}
