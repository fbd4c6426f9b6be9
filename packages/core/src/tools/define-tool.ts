import type { JsonSchema } from '@skein/spec';
import { ToolError } from '../errors/tool-error.js';
import type { FromSchema } from './from-json-schema.js';
import type {
  InferStandardOutput,
  StandardSchemaIssue,
  StandardSchemaV1,
} from './standard-schema.js';
import type { Tool, ToolExecutionContext, ToolThreadContext } from './tool.js';

// A schema that says nothing the type level can read still describes an object of arguments.
type ArgsOf<S> = unknown extends FromSchema<S> ? Record<string, unknown> : FromSchema<S>;

// `execute` and `needsApproval` are properties here (not methods, as in `Tool`) so their argument
// types are checked strictly: a hand-written parameter type that disagrees with the schema fails.
type Definition<TArgs, TSchema> = Omit<Tool<TArgs>, 'parameters' | 'execute' | 'needsApproval'> & {
  readonly parameters: TSchema;
  readonly execute: (args: TArgs, context: ToolExecutionContext) => unknown;
  readonly needsApproval?:
    | boolean
    | ((args: TArgs, context: ToolThreadContext) => boolean | Promise<boolean>);
};

/** `defineTool` with a Standard Schema (zod 4, valibot, arktype…) as `parameters`. */
export type StandardToolDefinition<S extends StandardSchemaV1> = Definition<
  InferStandardOutput<S>,
  S
> & {
  /**
   * The JSON Schema the model is shown. Default: the schema's own (`~standard.jsonSchema`, which
   * zod 4.2+ provides); required for libraries without it (e.g. valibot's `toJsonSchema(schema)`).
   */
  readonly jsonSchema?: JsonSchema;
};

/** `defineTool` with a JSON Schema literal as `parameters`. */
export type JsonSchemaToolDefinition<S extends JsonSchema> = Definition<ArgsOf<S>, S>;

/**
 * A tool whose `execute` arguments are inferred from its schema, like the Vercel AI SDK's `tool()`:
 * - a Standard Schema (zod 4…): arguments are the schema's output, validated (and transformed) by
 *   the schema before `execute` runs; the model is shown the schema's JSON Schema;
 * - a JSON Schema literal (inline, or a variable declared `as const`): arguments typed by
 *   `FromSchema`, validated against the schema by the engine as for any tool.
 */
export function defineTool<S extends StandardSchemaV1>(
  definition: StandardToolDefinition<S>,
): Tool<InferStandardOutput<S>>;
export function defineTool<const S extends JsonSchema>(
  definition: JsonSchemaToolDefinition<S>,
): Tool<ArgsOf<S>>;
export function defineTool(
  definition: StandardToolDefinition<StandardSchemaV1> | JsonSchemaToolDefinition<JsonSchema>,
): Tool<unknown> {
  const { parameters } = definition;
  if (!isStandardSchema(parameters)) return definition as Tool<unknown>;
  return fromStandardSchema(definition as StandardToolDefinition<StandardSchemaV1>, parameters);
}

function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    '~standard' in value
  );
}

function fromStandardSchema(
  definition: StandardToolDefinition<StandardSchemaV1>,
  schema: StandardSchemaV1,
): Tool<unknown> {
  const { jsonSchema, execute, needsApproval, ...rest } = definition;
  const parameters =
    jsonSchema ?? schema['~standard'].jsonSchema?.input({ target: 'draft-2020-12' });
  if (parameters === undefined)
    throw ToolError.invalidTool(
      definition.name,
      `its ${schema['~standard'].vendor} schema cannot give a JSON Schema: pass \`jsonSchema\``,
    );
  const parse = async (args: unknown): Promise<StandardParse> => {
    const result = await schema['~standard'].validate(args);
    return result.issues ? { ok: false, issues: result.issues } : { ok: true, value: result.value };
  };
  return {
    ...rest,
    parameters,
    async execute(args, context) {
      const parsed = await parse(args);
      if (!parsed.ok)
        throw ToolError.argumentsInvalid(definition.name, describeIssues(parsed.issues));
      return execute(parsed.value, context);
    },
    ...(typeof needsApproval === 'function'
      ? {
          // Arguments the schema refuses are never run (execute throws), so they need no approval.
          async needsApproval(args: unknown, context: ToolThreadContext) {
            const parsed = await parse(args);
            return parsed.ok && needsApproval(parsed.value, context);
          },
        }
      : needsApproval === undefined
        ? {}
        : { needsApproval }),
  };
}

type StandardParse =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issues: readonly StandardSchemaIssue[] };

function describeIssues(issues: readonly StandardSchemaIssue[]): string {
  return issues
    .map((issue) => {
      const path = (issue.path ?? [])
        .map((part) => String(typeof part === 'object' ? part.key : part))
        .join('.');
      return path ? `${path}: ${issue.message}` : issue.message;
    })
    .join('; ');
}
