import type { LLMMessage, ToolSpec } from '@skein/spec';
import { ToolBenchError } from '../errors/toolbench-error.js';
import { FINISH_FUNCTION, FINISH_FUNCTION_NAME } from '../functions/finish-function.js';
import { reactMetadataOf } from '../llm/react-metadata.js';
import { textOnlyMessages } from '../llm/text-only-messages.js';
import { type ObservationOptions, toolObservation } from '../llm/tool-observation.js';
import type { PromptFunction } from '../prompt/toolllama-prompt.js';
import { finishOutcomeReference } from '../react/finish-outcome.js';

/** A tool step as the pass-rate evaluator reads it. */
export interface AnswerToolMessage {
  readonly name: string;
  readonly arguments: string;
  readonly response: string;
}

/** One node of `answer_details`: a chain linked through `next`. */
export interface AnswerDetail {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly message: string | AnswerToolMessage;
  readonly next: readonly AnswerDetail[];
}

/** One entry of a converted-answer file (`convert_to_answer_format.py` output), keyed by query id. */
export interface ConvertedAnswer {
  readonly query: string;
  readonly available_tools: readonly PromptFunction[];
  readonly answer: {
    readonly method: string;
    readonly total_steps: number;
    readonly final_answer: string;
    readonly answer_details: readonly AnswerDetail[];
  };
}

export interface ConvertedAnswerInput {
  /** The query text. */
  readonly query: string;
  /** The functions offered (`Finish` is appended when missing, as the reference's list ends with it). */
  readonly tools: readonly (ToolSpec | PromptFunction)[];
  /** The thread's messages as the engine stores them. */
  readonly messages: readonly LLMMessage[];
  /**
   * Overrides the final answer. Default: the raw arguments of the last `Finish` when it gave an
   * answer (the reference stores those), else `""` (a run that gave up has no final answer).
   */
  readonly finalAnswer?: string;
  /** The method string; default `CoT@1` (one chain). */
  readonly method?: string;
  /** For failures the engine decided, written as function responses: see `ReActLLMClientOptions`. */
  readonly ensureAscii?: boolean;
}

type Node = { readonly role: AnswerDetail['role']; readonly message: string | AnswerToolMessage };

function availableTools(tools: ConvertedAnswerInput['tools']): PromptFunction[] {
  const list: PromptFunction[] = tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
  }));
  if (!list.some((tool) => tool.name === FINISH_FUNCTION_NAME)) list.push(FINISH_FUNCTION);
  return list;
}

// The observation the model read, as the reference stores it (see toolObservation).
function responseFor(
  messages: readonly LLMMessage<string>[],
  from: number,
  callId: string,
  options: ObservationOptions,
): string | undefined {
  for (let i = from; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === 'tool' && message.toolCallId === callId)
      return toolObservation(message, options);
  }
  return undefined;
}

// process_valid_data (convert_to_answer_format.py L27-99): system and user nodes, then one tool
// node per answered call (Finish with an empty response, and nothing after it in that message),
// one assistant node per content-only assistant message.
function nodesOf(
  messages: readonly LLMMessage<string>[],
  options: ObservationOptions,
): { nodes: Node[]; finalAnswer: string } {
  const nodes: Node[] = [];
  let finalAnswer = '';
  const finishNode = (args: string, answered: boolean): void => {
    nodes.push({
      role: 'tool',
      message: { name: FINISH_FUNCTION_NAME, arguments: args, response: '' },
    });
    // The reference keeps a final answer only for a run that ended in give_answer (valid data).
    finalAnswer = answered ? args : '';
  };
  messages.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    const finish = reactMetadataOf(message)?.finish;
    if (finish !== undefined) {
      finishNode(finish.arguments, finish.returnType === 'give_answer');
      return;
    }
    const calls = message.toolCalls ?? [];
    if (calls.length === 0) {
      nodes.push({ role: 'assistant', message: message.content });
      return;
    }
    for (const call of calls) {
      if (call.name === FINISH_FUNCTION_NAME) {
        finishNode(
          call.arguments,
          call.error === undefined && finishOutcomeReference(call.arguments).kind === 'answer',
        );
        break;
      }
      // An error call's observation is its error text (the engine words its answer its own way).
      const response = call.error ?? responseFor(messages, index + 1, call.id, options);
      if (response !== undefined)
        nodes.push({
          role: 'tool',
          message: { name: call.name, arguments: call.arguments, response },
        });
    }
  });
  return { nodes, finalAnswer };
}

function chain(nodes: readonly Node[]): AnswerDetail[] {
  let next: AnswerDetail[] = [];
  for (let i = nodes.length - 1; i >= 0; i--) next = [{ ...nodes[i]!, next }];
  return next;
}

function check(input: ConvertedAnswerInput): void {
  if (typeof input?.query !== 'string')
    throw ToolBenchError.answerInput('query', 'must be a string');
  if (!Array.isArray(input.tools)) throw ToolBenchError.answerInput('tools', 'must be an array');
  if (!Array.isArray(input.messages))
    throw ToolBenchError.answerInput('messages', 'must be an array');
  if (input.ensureAscii !== undefined && typeof input.ensureAscii !== 'boolean')
    throw ToolBenchError.answerInput('ensureAscii', 'must be a boolean');
  input.messages.forEach((message, i) => {
    if (typeof message?.role !== 'string' || typeof message.content !== 'string')
      throw ToolBenchError.answerInput(`messages[${i}]`, 'must have a role and string content');
  });
}

/**
 * A finished thread in the benchmark's converted-answer format, the input of the pass-rate
 * evaluator. Thoughts attached to calls are left out and content-only assistant messages become
 * assistant nodes, as `convert_to_answer_format.py` does for valid runs; a `Finish` answered by
 * `createReActLLMClient` (metadata) or written as a tool call both become the Finish node.
 */
export function toConvertedAnswer(input: ConvertedAnswerInput): ConvertedAnswer {
  check(input);
  // The answer format is text, as the prompt was: a media part is refused, naming it.
  const thread = nodesOf(
    textOnlyMessages(input.messages),
    input.ensureAscii === undefined ? {} : { ensureAscii: input.ensureAscii },
  );
  const nodes: Node[] = [
    { role: 'system', message: '' },
    { role: 'user', message: '' },
    ...thread.nodes,
  ];
  return {
    query: input.query,
    available_tools: availableTools(input.tools),
    answer: {
      method: input.method ?? 'CoT@1',
      total_steps: nodes.length,
      final_answer: input.finalAnswer ?? thread.finalAnswer,
      answer_details: chain(nodes),
    },
  };
}
