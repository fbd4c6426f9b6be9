import type { ElicitRequestFormParams } from '@modelcontextprotocol/sdk/types.js';

type FormSchema = ElicitRequestFormParams['requestedSchema'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// What an MCP form can show (the spec's restricted schemas): a string (its enums, titled with
// `oneOf`/`enumNames` or not, and its formats), a number, an integer, a boolean, or an array of
// enum choices (SEP-1330's multi-select).
function isFormField(field: unknown): boolean {
  if (!isRecord(field)) return false;
  switch (field.type) {
    case 'string':
    case 'number':
    case 'integer':
    case 'boolean':
      return true;
    case 'array': {
      const items = field.items;
      return isRecord(items) && (Array.isArray(items.enum) || Array.isArray(items.anyOf));
    }
    default:
      return false;
  }
}

/**
 * The elicitation form for an answer schema (a USER_INTERACTION node's `input`), or undefined when
 * a form cannot show it: it must be an object whose properties are each a field a form has. The
 * fields go as they are (titles, descriptions, defaults, enums); keywords a form does not know at
 * the top (`$schema`, `additionalProperties`) are left out, and the engine checks the answer
 * against the whole schema anyway.
 */
export function elicitationForm(schema: unknown): FormSchema | undefined {
  if (!isRecord(schema) || schema.type !== 'object' || !isRecord(schema.properties))
    return undefined;
  const fields = Object.entries(schema.properties);
  if (fields.length === 0 || !fields.every(([, field]) => isFormField(field))) return undefined;
  const required = Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
  return {
    type: 'object',
    properties: schema.properties as FormSchema['properties'],
    ...(required.length > 0 ? { required } : {}),
  };
}
