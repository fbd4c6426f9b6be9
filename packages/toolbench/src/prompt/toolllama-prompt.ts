import { ToolBenchError } from '../errors/toolbench-error.js';
import { pythonRepr } from '../python/python-repr.js';
import {
  TOOLLLAMA_ANCHOR_SENTENCE,
  TOOLLLAMA_FORMAT_INSERT,
  TOOLLLAMA_FUNCTIONS_PREFIX,
} from './prompt-texts.js';

/** `tool` is accepted as a synonym of `function` (both render as `Function:`). */
export type ToolLLaMARole = 'system' | 'user' | 'function' | 'tool' | 'assistant';

export interface ToolLLaMAMessage {
  readonly role: ToolLLaMARole;
  readonly content: string;
}

/** A function as it is listed in the prompt (Python repr of these dicts, in this key order). */
export interface PromptFunction {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface ToolLLaMAPromptInput {
  /** Rendered first, as a `System:` turn; may be left out when `messages` starts with one. */
  readonly system?: string;
  readonly messages: readonly ToolLLaMAMessage[];
  /** The functions offered, `Finish` included (it is not added here). */
  readonly functions: readonly PromptFunction[];
}

const ROLE_NAMES: Readonly<Record<ToolLLaMARole, string>> = {
  system: 'System',
  user: 'User',
  function: 'Function',
  tool: 'Function',
  assistant: 'Assistant',
};

/**
 * `process_system_message` (toolbench/utils.py L9-15): inserts the output format after the
 * sentence the model was trained on and appends the Python repr of the function list. A system
 * text without that sentence is refused, as the reference's assertion refuses it.
 */
export function processToolLLaMASystemMessage(
  system: string,
  functions: readonly PromptFunction[],
  where = 'system',
): string {
  if (!system.includes(TOOLLLAMA_ANCHOR_SENTENCE))
    throw ToolBenchError.prompt(
      where,
      `the system message must contain "${TOOLLLAMA_ANCHOR_SENTENCE}" (typo included) so the output format can be inserted after it`,
    );
  const withFormat = system
    .split(TOOLLLAMA_ANCHOR_SENTENCE)
    .join(TOOLLLAMA_ANCHOR_SENTENCE + TOOLLLAMA_FORMAT_INSERT);
  return withFormat + TOOLLLAMA_FUNCTIONS_PREFIX + pythonRepr(functions);
}

/**
 * The prompt the reference inference code sends to ToolLLaMA (tool_llama_model.py L111-118,
 * `tool-llama-single-round`): one `"<Role>: <content>\n"` per message, system messages rewritten
 * by `process_system_message` when functions are offered, then `"Assistant:\n"`.
 */
export function buildToolLLaMAPrompt(input: ToolLLaMAPromptInput): string {
  const messages: ToolLLaMAMessage[] =
    input.system === undefined
      ? [...input.messages]
      : [{ role: 'system', content: input.system }, ...input.messages];
  const offset = input.system === undefined ? 0 : 1;
  let prompt = '';
  messages.forEach((message, i) => {
    const where = i < offset ? 'system' : `messages[${i - offset}]`;
    if (!Object.hasOwn(ROLE_NAMES, message.role))
      throw ToolBenchError.prompt(where, `unknown role ${JSON.stringify(message.role)}`);
    const role = ROLE_NAMES[message.role];
    if (typeof message.content !== 'string')
      throw ToolBenchError.prompt(where, 'content must be a string');
    const content =
      message.role === 'system' && input.functions.length > 0
        ? processToolLLaMASystemMessage(message.content, input.functions, where)
        : message.content;
    prompt += `${role}: ${content}\n`;
  });
  return `${prompt}Assistant:\n`;
}
