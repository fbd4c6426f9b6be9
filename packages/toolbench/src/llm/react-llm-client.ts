import { randomInt } from 'node:crypto';
import type { LLMCallOptions, LLMClient, LLMRequest, LLMResponse } from '@skein/spec';
import { describeValue } from '../errors/describe-value.js';
import { invalidOption } from '../errors/invalid-option.js';
import { FINISH_FUNCTION, FINISH_FUNCTION_NAME } from '../functions/finish-function.js';
import type { ToolBenchFunction } from '../functions/types.js';
import { buildToolLLaMAPrompt, type PromptFunction } from '../prompt/toolllama-prompt.js';
import { pyStrip } from '../python/python-text.js';
import type { ReActParseMode } from '../react/parse-react.js';
import { type CompletionOutput, collectCompletion } from './collect-completion.js';
import { replyFromReActText } from './react-reply.js';
import { toToolLLaMAMessages } from './render-conversation.js';

/** What the completion function is asked. */
export interface CompletionRequest {
  readonly prompt: string;
  /** Stop strings (`</s>` first, then the request's own). */
  readonly stop: readonly string[];
  /** Aborted when the caller cancels or when the reply is complete before the stream ends. */
  readonly signal: AbortSignal;
  readonly model?: string;
  readonly temperature?: number;
  readonly maxTokens?: number;
}

export type CompleteFunction = (
  request: CompletionRequest,
) => CompletionOutput | Promise<CompletionOutput>;

export interface ReActLLMClientOptions {
  /** Prompt in, text or a token stream out (a local model, a vLLM completions endpoint, a script). */
  readonly complete: CompleteFunction;
  /**
   * `tolerant` (default): the tolerant parser, exact names first. `reference`: StableToolBench's
   * parser and dispatch exactly, so results stay comparable with published numbers.
   */
  readonly mode?: ReActParseMode;
  /** `LLMClient.name`; default `toolllama`. */
  readonly name?: string;
  /** Stop strings sent with every prompt; default `["</s>"]` as the reference sends. */
  readonly stop?: readonly string[];
  /** Strip whitespace around the output, as the reference's Hugging Face path does; default true. */
  readonly trimOutput?: boolean;
  /** Close a token stream as soon as the Action Input object is complete; default true. */
  readonly stopAtCompleteAction?: boolean;
  /** The `Finish` function appended to the prompt's list when the tools hold none. */
  readonly finishFunction?: ToolBenchFunction;
  /** Tool call ids; default `call_` + 8 random letters/digits, as the reference makes them. */
  readonly generateId?: () => string;
  /**
   * Escape non-ASCII text as `\uXXXX` in the function responses this client writes (unknown
   * function, unparsable input, failures the engine decided). Default false, the original
   * design's `ensure_ascii=False`; true gives the reference's bytes. Set the same on
   * `ToolBenchClient` for its observations.
   */
  readonly ensureAscii?: boolean;
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function referenceCallId(): string {
  let id = 'call_';
  for (let i = 0; i < 8; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}

function promptFunctions(request: LLMRequest, finish: ToolBenchFunction): PromptFunction[] {
  const functions: PromptFunction[] = request.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parameters: tool.parameters,
  }));
  if (!functions.some((fn) => fn.name === FINISH_FUNCTION_NAME)) functions.push(finish);
  return functions;
}

/**
 * Turns a text-completion function into a Skein `LLMClient` that speaks ToolLLaMA's ReAct format:
 * the request is rendered as the reference prompt, the reply parsed, `Action`/`Action Input`
 * returned as one tool call, `Finish` as the final answer (content = the answer, `metadata.toolbench`
 * = the details), and an unusable reply as a call carrying `error`, which the engine answers with
 * that text so the model reads it next turn.
 */
export function createReActLLMClient(options: ReActLLMClientOptions): LLMClient {
  if (typeof options?.complete !== 'function')
    throw invalidOption('complete', 'expected a function (prompt in, text or token stream out)');
  const mode = options.mode ?? 'tolerant';
  if (mode !== 'tolerant' && mode !== 'reference')
    throw invalidOption('mode', `expected "tolerant" or "reference", got ${describeValue(mode)}`);
  const baseStop = options.stop ?? ['</s>'];
  const finish = options.finishFunction ?? FINISH_FUNCTION;
  const generateId = options.generateId ?? referenceCallId;
  const trim = options.trimOutput ?? true;
  const stopAtCompleteAction = options.stopAtCompleteAction ?? true;
  if (options.ensureAscii !== undefined && typeof options.ensureAscii !== 'boolean')
    throw invalidOption(
      'ensureAscii',
      `expected a boolean, got ${describeValue(options.ensureAscii)}`,
    );
  const ensureAscii = options.ensureAscii ?? false;

  return {
    name: options.name ?? 'toolllama',
    async generate(request: LLMRequest, callOptions: LLMCallOptions = {}): Promise<LLMResponse> {
      const functions = promptFunctions(request, finish);
      const prompt = buildToolLLaMAPrompt({
        messages: toToolLLaMAMessages(request.messages, { ensureAscii }),
        functions,
      });
      const stop = [...baseStop, ...(request.stop ?? [])];
      const early = new AbortController();
      const signal = callOptions.signal
        ? AbortSignal.any([callOptions.signal, early.signal])
        : early.signal;
      const output = await options.complete({
        prompt,
        stop,
        signal,
        ...(request.model === undefined ? {} : { model: request.model }),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
        ...(request.maxTokens === undefined ? {} : { maxTokens: request.maxTokens }),
      });
      const collected = await collectCompletion(output, {
        stop,
        stopAtCompleteAction,
        signal: callOptions.signal,
        onDelta: (delta) => callOptions.onEvent?.({ type: 'text-delta', delta }),
        onEarlyStop: () => early.abort(),
      });
      // A backend may end its stream quietly on abort: what it gave is not an answer.
      callOptions.signal?.throwIfAborted();
      const text = trim ? pyStrip(collected.text) : collected.text;
      const callable = functions
        .filter((fn) => fn.name !== FINISH_FUNCTION_NAME)
        .map((fn) => fn.name);
      const reply = replyFromReActText(text, {
        mode,
        functionNames: callable,
        generateId,
        ensureAscii,
        warn: (code, message, details) =>
          callOptions.onEvent?.({
            type: 'warning',
            code,
            message,
            ...(details ? { details } : {}),
          }),
      });
      return {
        message: reply.message,
        finishReason: reply.finishReason,
        ...(request.model ? { model: request.model } : {}),
      };
    },
  };
}
