import type { ToolSpec } from '@skein/spec';

/** One parameter of an API in a query's `api_list` (FORMAT.md §10.1). */
export interface ToolBenchApiParameter {
  readonly name: string;
  readonly type?: string;
  readonly description?: string;
  readonly default?: unknown;
}

/** One entry of a query's `api_list`; the minimal form has only the three names. */
export interface ToolBenchApi {
  readonly category_name?: string;
  readonly tool_name: string;
  readonly api_name: string;
  readonly api_description?: string;
  readonly required_parameters?: readonly ToolBenchApiParameter[];
  readonly optional_parameters?: readonly ToolBenchApiParameter[];
  readonly method?: string;
  readonly template_response?: unknown;
}

/** A benchmark query (`solvable_queries/test_instruction/*.json` entries). */
export interface ToolBenchQuery {
  readonly query: string;
  readonly query_id?: number | string;
  readonly api_list: readonly ToolBenchApi[];
  readonly 'relevant APIs'?: readonly (readonly string[])[];
}

export interface ToolBenchParameterProperty {
  readonly type: string;
  readonly description?: string;
  readonly example_value?: unknown;
  readonly enum?: readonly string[];
}

/** The function dict the model sees (the unwrapped `function` of rapidapi.py L193-278). */
export interface ToolBenchFunction {
  readonly name: string;
  readonly description: string;
  readonly parameters: {
    readonly type: 'object';
    readonly properties: Readonly<Record<string, ToolBenchParameterProperty>>;
    readonly required: readonly string[];
    readonly optional?: readonly string[];
  };
}

/** A tool spec carrying a benchmark function: its `parameters` are the function's, unchanged. */
export type ToolBenchToolSpec = ToolSpec & ToolBenchFunction;
