import { InvalidArgumentError, type JsonSchema } from '@skein/spec';

/** The argument that carries a first user message, unless the workflow has a variable of that name. */
export const MESSAGE_ARGUMENT = 'message';

const MESSAGE_PROPERTY = {
  type: 'string',
  description: 'The first user message of the thread (optional)',
} as const;

/** What a workflow tool takes: its JSON Schema, and whether `message` is the first user message. */
export interface ToolInput {
  readonly schema: Readonly<Record<string, unknown>>;
  /** False when the workflow declares a variable named `message`: the argument is that variable. */
  readonly takesMessage: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The input schema of a workflow's tool: its variable schema with `message` added, properties
 * with a default no longer required (the engine fills them in) and their defaults shown. MCP wants
 * an object schema at the top, and variables are always an object, so any other schema is refused.
 */
export function toolInputSchema(
  workflowId: string,
  variables: {
    readonly schema?: JsonSchema;
    readonly defaults?: Readonly<Record<string, unknown>>;
  } = {},
): ToolInput {
  const schema: Record<string, unknown> = isRecord(variables.schema) ? { ...variables.schema } : {};
  if (variables.schema !== undefined && !isRecord(variables.schema))
    throw new InvalidArgumentError(
      `workflows.${workflowId}.variables.schema`,
      `Workflow "${workflowId}" cannot be an MCP tool: its variable schema is not a JSON Schema object`,
    );
  if (schema.type !== undefined && schema.type !== 'object')
    throw new InvalidArgumentError(
      `workflows.${workflowId}.variables.schema.type`,
      `Workflow "${workflowId}" cannot be an MCP tool: its variable schema has type ${JSON.stringify(schema.type)}, and MCP tool input must be an object`,
    );
  const defaults = variables.defaults ?? {};
  const properties: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(
    isRecord(schema.properties) ? schema.properties : {},
  ))
    properties[name] =
      Object.hasOwn(defaults, name) && isRecord(property) && property.default === undefined
        ? { ...property, default: defaults[name] }
        : property;
  const takesMessage = !Object.hasOwn(properties, MESSAGE_ARGUMENT);
  if (takesMessage) properties[MESSAGE_ARGUMENT] = MESSAGE_PROPERTY;
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name) => typeof name === 'string' && !Object.hasOwn(defaults, name))
    : [];
  const result: Record<string, unknown> = { ...schema, type: 'object', properties };
  if (required.length > 0) result.required = required;
  else delete result.required;
  return { schema: result, takesMessage };
}
