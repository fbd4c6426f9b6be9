import { contentText, type LLMClient, type LLMResponse, type ResponseFormat } from '@skein/spec';
import type { ValidateFunction } from 'ajv';
import { NodeError } from '../errors/node-error.js';
import { JsonSchemaCompiler } from '../tools/json-schema-compiler.js';
import type { LLMNode } from '../workflow/types.js';

// Keeps no schema once compiled (see JsonSchemaCompiler); one ajv instance per dialect is shared so
// a node does not build one per model call.
const compiler = new JsonSchemaCompiler();

const DEFAULT_NAME = 'output';

/** ajv's errors as one line: where in the answer, and what is wrong there. */
function problemsOf(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
    .join('; ');
}

/** The parsed answer, or `NodeError` `OUTPUT_INVALID` saying why it is not acceptable. */
function checkAnswer(nodeId: string, content: string, validate: ValidateFunction): unknown {
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch (error) {
    throw NodeError.outputInvalid(nodeId, `not JSON (${(error as Error).message})`);
  }
  if (!validate(value)) throw NodeError.outputInvalid(nodeId, problemsOf(validate));
  return value;
}

/**
 * `llm` as the node with `output: { schema }` calls it: every request carries the schema as its
 * `responseFormat`, and a final answer (one without tool calls) that is not JSON matching the
 * schema rejects with `OUTPUT_INVALID`. The check runs inside the call, so the node's retry policy
 * sees a failed call and asks again, and a bad answer never reaches the conversation. Without
 * `output`, `llm` itself.
 */
export function withOutputSchema(llm: LLMClient, node: LLMNode): LLMClient {
  const output = node.config?.output;
  if (output === undefined) return llm;
  // Workflow validation compiled this schema already; a failure here is a definition that skipped it.
  const validate = compiler.compile(output.schema as object);
  const responseFormat: ResponseFormat = {
    type: 'json',
    schema: output.schema,
    name: output.name ?? DEFAULT_NAME,
    ...(output.strict === undefined ? {} : { strict: output.strict }),
  };
  return {
    name: llm.name,
    generate: async (request, options): Promise<LLMResponse> => {
      const response = await llm.generate({ ...request, responseFormat }, options);
      if ((response.message.toolCalls ?? []).length === 0)
        checkAnswer(node.id, contentText(response.message.content), validate);
      return response;
    },
  };
}

/**
 * What the node hands on as its output: the parsed JSON of a final answer when it has `output`
 * (already checked by `withOutputSchema`), else the text. A node cut off by `maxToolRounds` has no
 * final answer, so its output stays the last text.
 */
export function nodeOutputValue(node: LLMNode, content: string, stopReason: string): unknown {
  if (node.config?.output === undefined || stopReason !== 'done') return content;
  return JSON.parse(content) as unknown;
}
