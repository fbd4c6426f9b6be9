import { SkeinError } from '@skein/spec';
import { JsonSchemaCompiler } from '../tools/json-schema-compiler.js';
import { type Checker, type IssueWhere, isObject } from './workflow-checker.js';

// Shared by every validation, as in validate-variables.ts: it keeps no schema once compiled.
const compiler = new JsonSchemaCompiler();

/** What OpenAI accepts as `json_schema.name`, the strictest provider rule Skein passes it to. */
const SCHEMA_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * An LLM node's `output: { schema, name?, strict? }`: the schema must be a JSON Schema object that
 * compiles (in the dialect its `$schema` names), so a bad one is reported with the node's id
 * before any model is called.
 */
export function checkOutputConfig(output: unknown, checker: Checker, where: IssueWhere): void {
  if (output === undefined) return;
  const bad = (message: string, field?: string) =>
    checker.add({
      ...where,
      path: field === undefined ? where.path : `${where.path}.${field}`,
      code: 'INVALID_NODE_CONFIG',
      message,
    });
  if (!isObject(output)) {
    bad('output must be an object { schema, name?, strict? }');
    return;
  }
  const { schema, name, strict } = output;
  if (name !== undefined && (typeof name !== 'string' || !SCHEMA_NAME.test(name)))
    bad('output.name must match [a-zA-Z0-9_-]{1,64}', 'name');
  if (strict !== undefined && typeof strict !== 'boolean')
    bad('output.strict must be a boolean', 'strict');
  if (!isObject(schema)) {
    bad('output.schema must be a JSON Schema object', 'schema');
    return;
  }
  try {
    compiler.compile(schema);
  } catch (error) {
    bad(
      `output.schema does not compile: ${SkeinError.isInstance(error) || error instanceof Error ? error.message : String(error)}`,
      'schema',
    );
  }
}
