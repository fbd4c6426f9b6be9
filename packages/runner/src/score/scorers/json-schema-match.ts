import { ArgumentValidator } from '@skein/core';
import type { JsonSchema, ToolSpec } from '@skein/spec';
import { invalidOption } from '../../errors/invalid-option.js';
import type { Scorer, ScorerInput, ScoreValue } from '../scorer.js';

export interface JsonSchemaMatchOptions {
  /** The scorer's name in `scores.jsonl` (default `json-schema`). */
  readonly name?: string;
  /** The JSON Schema the output must match (draft-07, 2019-09 or 2020-12, by its `$schema`). */
  readonly schema: JsonSchema;
  /** What is checked (default the item's output, `result.output`). */
  readonly actual?: (input: ScorerInput) => unknown;
}

const COMPILE_FAILED = "the tool's schema does not compile: ";

/**
 * 1 when the output matches the schema, else 0. An output that is a string is parsed as JSON
 * first (a model's structured answer is often text); one that is not JSON scores 0. The reason
 * names the first path that fails (`/items/0/price must be number`); `details.errors` lists every
 * problem ajv found. The schema is compiled once, when the scorer is made: one that does not
 * compile is an `InvalidArgumentError` then, not a score of 0 for every item.
 */
export function jsonSchemaMatch(options: JsonSchemaMatchOptions): Scorer {
  const name = options?.name ?? 'json-schema';
  const schema = options?.schema as unknown;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    throw invalidOption('jsonSchemaMatch.schema', 'must be a JSON Schema object');
  const validator = new ArgumentValidator();
  // The schema as a tool's parameters: @skein/core's validator compiles it with ajv, by dialect.
  const tool: ToolSpec = { name, description: '', parameters: schema as JsonSchema };
  const first = validator.checkValue(tool, {});
  if (!first.ok && first.problems.startsWith(COMPILE_FAILED))
    throw invalidOption('jsonSchemaMatch.schema', first.problems.slice(COMPILE_FAILED.length));
  return {
    name,
    score(input): ScoreValue {
      let value = options.actual ? options.actual(input) : input.result.output;
      if (value === undefined)
        return { score: 0, reason: `no output (the item is ${input.result.status})` };
      if (typeof value === 'string')
        try {
          value = JSON.parse(value);
        } catch (error) {
          return {
            score: 0,
            reason: `the output is not JSON (${error instanceof Error ? error.message : String(error)})`,
          };
        }
      const check = validator.checkValue(tool, value as Record<string, unknown>);
      if (check.ok) return { score: 1, reason: 'matches the schema' };
      const errors = check.problems.split('; ');
      return { score: 0, reason: errors[0]!, details: { errors } };
    },
  };
}
