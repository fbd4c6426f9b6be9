import { SkeinError } from '@skein/spec';
import { JsonSchemaCompiler } from '../tools/json-schema-compiler.js';
import { type Checker, isObject } from './workflow-checker.js';

// Shared by every validation: it keeps no schema once compiled (see JsonSchemaCompiler), and one
// ajv instance per dialect spares each registration the cost of building one.
const compiler = new JsonSchemaCompiler();

/**
 * `variables: { schema?, defaults? }`: the schema must compile (in the dialect its `$schema`
 * names) and the defaults must be an object that matches it.
 */
export function checkVariables(variables: unknown, checker: Checker): void {
  if (variables === undefined) return;
  const bad = (path: string, message: string) =>
    checker.add({ code: 'INVALID_VARIABLES', path, message });
  if (!isObject(variables)) {
    bad('variables', 'variables must be an object { schema?, defaults? }');
    return;
  }
  const { schema, defaults } = variables;
  if (defaults !== undefined && !isObject(defaults)) {
    bad('variables.defaults', 'defaults must be an object of variable values');
    return;
  }
  if (schema === undefined) return;
  if (!isObject(schema) && typeof schema !== 'boolean') {
    bad('variables.schema', 'schema must be a JSON Schema object');
    return;
  }
  try {
    const validate = compiler.compile(schema as object);
    if (defaults !== undefined && !validate(defaults))
      bad(
        'variables.defaults',
        `defaults do not match the schema: ${compiler.errorsText(validate.errors)}`,
      );
  } catch (error) {
    bad(
      'variables.schema',
      `schema does not compile: ${SkeinError.isInstance(error) || error instanceof Error ? error.message : String(error)}`,
    );
  }
}
