import { SkeinError } from '@skein/spec';
import { JsonSchemaCompiler } from '../tools/json-schema-compiler.js';
import type { Checker } from './workflow-checker.js';

// Shared, as with variables: it keeps no schema once compiled.
const compiler = new JsonSchemaCompiler();

/** A USER_INTERACTION's `input`: a JSON Schema (object or boolean) that compiles in its dialect. */
export function checkAnswerSchema(
  schema: unknown,
  where: { readonly nodeId: string; readonly path: string },
  checker: Checker,
): void {
  if (schema === undefined) return;
  const bad = (message: string) => checker.add({ ...where, code: 'INVALID_NODE_CONFIG', message });
  if (
    typeof schema !== 'boolean' &&
    (typeof schema !== 'object' || schema === null || Array.isArray(schema))
  ) {
    bad('input must be a JSON Schema for the answer');
    return;
  }
  try {
    compiler.compile(schema as object);
  } catch (error) {
    bad(
      `input does not compile: ${SkeinError.isInstance(error) || error instanceof Error ? error.message : String(error)}`,
    );
  }
}
