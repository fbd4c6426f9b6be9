import { ToolError } from '@skein/core';
import type { JsonSchema, ToolSpec } from '@skein/spec';
import { ToolConversionError } from '../errors/tool-conversion-error.js';

/** One entry of the Chat Completions `tools` array. */
export interface OpenAIFunctionToolDefinition {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: JsonSchema;
    readonly strict?: boolean;
  };
}

function checkSpec(spec: ToolSpec, index: number): void {
  const label = typeof spec?.name === 'string' && spec.name.length > 0 ? spec.name : `#${index}`;
  if (typeof spec !== 'object' || spec === null)
    throw new ToolConversionError(label, 'toOpenAITools', `list entry ${index} is not an object`);
  if (typeof spec.name !== 'string' || spec.name.length === 0)
    throw new ToolConversionError(label, 'toOpenAITools', 'name must be a non-empty string');
  if (typeof spec.description !== 'string')
    throw new ToolConversionError(label, 'toOpenAITools', 'description must be a string');
  if (
    typeof spec.parameters !== 'object' ||
    spec.parameters === null ||
    Array.isArray(spec.parameters)
  )
    throw new ToolConversionError(
      label,
      'toOpenAITools',
      'parameters must be a JSON Schema object',
    );
}

/**
 * The OpenAI Chat Completions `tools` array for any consumer that needs that format (a user
 * simulator, an evaluator). Schemas are copied, so the consumer may change them freely. Names are
 * passed as they are: encoding names a provider cannot take is `@skein/openai`'s job.
 */
export function toOpenAITools(tools: readonly ToolSpec[]): OpenAIFunctionToolDefinition[] {
  const sources = new Map<string, string[]>();
  tools.forEach((spec, index) => {
    checkSpec(spec, index);
    const source = (spec as { source?: string }).source ?? 'local';
    const list = sources.get(spec.name);
    if (list) list.push(source);
    else sources.set(spec.name, [source]);
  });
  const conflicts = [...sources]
    .filter(([, list]) => list.length > 1)
    .map(([name, list]) => ({ name, sources: list }));
  if (conflicts.length > 0)
    throw ToolError.conflict(conflicts, 'Tool names must be unique in one tools array.');
  return tools.map((spec) => ({
    type: 'function',
    function: {
      name: spec.name,
      description: spec.description,
      parameters: structuredClone(spec.parameters),
      ...(spec.strict === undefined ? {} : { strict: spec.strict }),
    },
  }));
}
