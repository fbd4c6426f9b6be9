import type { JsonSchema } from '@skein/spec';
import { ThreadError } from '../errors/thread-error.js';
import { JsonSchemaCompiler } from '../tools/json-schema-compiler.js';

// Shared: it keeps no schema once compiled. An answer is checked once per resume, so compiling
// the schema then costs nothing a caller waits on.
const compiler = new JsonSchemaCompiler();

/** Refuses an answer its node's `input` schema does not accept, saying what is wrong. */
export function checkAnswerSchema(
  threadId: string,
  schema: JsonSchema | undefined,
  input: unknown,
): void {
  if (schema === undefined) return;
  // A copy: the validator may fill defaults in, and the caller's answer is theirs.
  const validate = compiler.compile(schema as object | boolean);
  if (!validate(structuredClone(input)))
    throw ThreadError.resumeInput(
      threadId,
      `the answer does not match the node's input schema: ${compiler.errorsText(validate.errors)}`,
    );
}
