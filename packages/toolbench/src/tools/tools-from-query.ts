import type { Tool, ToolExecutionContext } from '@skein/core';
import { type ToolOutput, toolOutput } from '@skein/spec';
import type { ObservationStrip, ToolBenchCaller } from '../client/toolbench-client.js';
import { describeValue } from '../errors/describe-value.js';
import { invalidOption } from '../errors/invalid-option.js';
import { ToolBenchError } from '../errors/toolbench-error.js';
import { toolBenchFunctions } from '../functions/api-to-function.js';
import type { ToolBenchQuery } from '../functions/types.js';
import { toolBenchApiName } from '../naming/function-name.js';
import { standardizeToolBenchName } from '../naming/standardize.js';
import {
  DEFAULT_MAX_OBSERVATION_LENGTH,
  truncateObservation,
} from '../observation/function-response.js';

export interface ToolsFromQueryOptions {
  /** Where calls go: a `ToolBenchClient` (or anything answering like the virtual-API server). */
  readonly client: ToolBenchCaller;
  /**
   * Observations longer than this are cut and get `...` (the reference's `max_observation_length`,
   * default 1024). `null` keeps them whole.
   */
  readonly maxObservationLength?: number | null;
  readonly strip?: ObservationStrip;
  /**
   * What the request's `api_name` holds. `full` (default, as the original design asks): the
   * function name the model called, `<api>_for_<tool>`, which the virtual server cuts at
   * `_for_<tool>` itself. `api`: `change_name(standardize(api))` alone, as StableToolBench's
   * client sends it: requests byte-equal to the reference's, and the right API for names cut to
   * their last 64 characters (whose API part has lost its start).
   */
  readonly apiName?: 'full' | 'api';
  /** Query tool name to standardized tool name (tool file stem), where they differ. */
  readonly toolNames?: Readonly<Record<string, string>>;
  /** Categories by query tool name, for entries that carry no `category_name`. */
  readonly categories?: Readonly<Record<string, string>>;
  /** See `ToolBenchFunctionOptions.emptyNamePlaceholders`. */
  readonly emptyNamePlaceholders?: boolean;
}

/** What a ToolBench tool's result carries in `data` (the engine keeps it in `metadata.data`). */
export interface ToolBenchToolData {
  readonly status: number;
  readonly category: string;
  readonly toolName: string;
  /** `change_name(standardize(api))`, whatever the request's `api_name` held. */
  readonly apiName: string;
}

function checkOptions(options: ToolsFromQueryOptions): void {
  if (typeof options?.client?.call !== 'function')
    throw invalidOption('client', 'expected a ToolBenchClient (an object with a call() method)');
  const max = options.maxObservationLength;
  if (max !== undefined && max !== null && !(Number.isInteger(max) && max > 0))
    throw invalidOption('maxObservationLength', `expected a positive integer or null, got ${max}`);
  if (options.apiName !== undefined && options.apiName !== 'full' && options.apiName !== 'api')
    throw invalidOption(
      'apiName',
      `expected "full" or "api", got ${describeValue(options.apiName)}`,
    );
}

/**
 * Skein tools for a query's `api_list`: named, described and parameterised exactly as the
 * benchmark offers them (so a prompt built from their specs is the reference prompt), each
 * calling the virtual-API server with the category from the data. An API whose category cannot
 * be found is a `ToolBenchError` (`TOOLBENCH_MISSING_CATEGORY`); there is no default category.
 * `Finish` is not a tool: the ReAct client turns it into the final answer.
 */
export function toolsFromQuery(query: ToolBenchQuery, options: ToolsFromQueryOptions): Tool[] {
  checkOptions(options);
  const functions = toolBenchFunctions(query, options);
  const maxLength =
    options.maxObservationLength === null
      ? undefined
      : (options.maxObservationLength ?? DEFAULT_MAX_OBSERVATION_LENGTH);
  return query.api_list.map((api, i) => {
    const fn = functions[i]!;
    const fromData = api.category_name;
    const category =
      typeof fromData === 'string' && fromData !== ''
        ? fromData
        : options.categories?.[api.tool_name];
    if (category === undefined || category === '')
      throw ToolBenchError.missingCategory(api.tool_name, api.api_name, `query.api_list[${i}]`);
    const toolName = options.toolNames?.[api.tool_name] ?? standardizeToolBenchName(api.tool_name);
    const apiName = toolBenchApiName(api.api_name);
    const sentApiName = options.apiName === 'api' ? apiName : fn.name;
    const tool: Tool = {
      name: fn.name,
      description: fn.description,
      parameters: fn.parameters,
      source: 'toolbench',
      // The reference never checks arguments against the schema: the virtual-API server sees
      // exactly what the model sent, and benchmark numbers stay comparable.
      validateArguments: false,
      async execute(
        args: Record<string, unknown>,
        context: ToolExecutionContext,
      ): Promise<ToolOutput> {
        const result = await options.client.call(
          {
            category,
            toolName,
            apiName: sentApiName,
            toolInput: JSON.stringify(args ?? {}),
            ...(options.strip === undefined ? {} : { strip: options.strip }),
          },
          { signal: context.signal },
        );
        const data: ToolBenchToolData = { status: result.status, category, toolName, apiName };
        // The observation reaches the model exactly as the benchmark shows it; failures are
        // flagged (for events and triggers) without changing the text.
        return toolOutput({
          content: truncateObservation(result.observation, maxLength),
          isError: result.status !== 0,
          data,
        });
      },
    };
    return tool;
  });
}
