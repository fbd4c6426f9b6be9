import type { ToolBenchQuery } from '../functions/types.js';
import { standardizeToolBenchName } from '../naming/standardize.js';
import { pyStrip, pyTake } from '../python/python-text.js';
import {
  TOOLBENCH_SYSTEM_TEMPLATE,
  TOOLBENCH_TASK_PREAMBLE,
  TOOLBENCH_USER_TEMPLATE,
} from './prompt-texts.js';

export interface ToolBenchToolDescription {
  /** The standardized tool name. */
  readonly name: string;
  /** The tool's `tool_description` (from the tool file, not in the query data). */
  readonly description?: string | null;
}

export interface ToolBenchTaskDescriptionOptions {
  /** Tool descriptions by the query's tool name or by the standardized name. */
  readonly toolDescriptions?: Readonly<Record<string, string>>;
  /** Query tool name to standardized tool name, where they differ. */
  readonly toolNames?: Readonly<Record<string, string>>;
}

const DESCRIPTION_LIMIT = 512;

/**
 * The task description of rapidapi.py L119-135: the fixed rules, then one `"{k}.{tool}: {desc}"`
 * line per distinct tool in first-seen order (a later duplicate's description wins, as in a Python
 * dict), the description cut to 512 characters, newlines removed, stripped, `None` when empty.
 */
export function buildToolBenchTaskDescription(tools: readonly ToolBenchToolDescription[]): string {
  const unique = new Map<string, string | null | undefined>();
  for (const tool of tools) unique.set(tool.name, tool.description);
  let out = TOOLBENCH_TASK_PREAMBLE;
  let k = 1;
  for (const [name, description] of unique) {
    const text =
      typeof description === 'string'
        ? pyStrip(pyTake(description, DESCRIPTION_LIMIT).replaceAll('\n', ''))
        : '';
    out += `${k}.${name}: ${text === '' ? 'None' : text}\n`;
    k++;
  }
  return out;
}

/** The task description of a query, with tool descriptions supplied by the caller. */
export function toolBenchTaskDescription(
  query: ToolBenchQuery,
  options: ToolBenchTaskDescriptionOptions = {},
): string {
  const tools = query.api_list.map((api) => {
    const name = options.toolNames?.[api.tool_name] ?? standardizeToolBenchName(api.tool_name);
    const description =
      options.toolDescriptions?.[api.tool_name] ?? options.toolDescriptions?.[name];
    return { name, description };
  });
  return buildToolBenchTaskDescription(tools);
}

/** The system message: `FORMAT_INSTRUCTIONS_SYSTEM_FUNCTION` with the task description filled in. */
export function buildToolBenchSystemMessage(taskDescription: string): string {
  return TOOLBENCH_SYSTEM_TEMPLATE.split('{task_description}').join(taskDescription);
}

/** The user message: `"\n<query>\nBegin!\n"`. */
export function buildToolBenchUserMessage(query: string): string {
  return TOOLBENCH_USER_TEMPLATE.split('{input_description}').join(query);
}
