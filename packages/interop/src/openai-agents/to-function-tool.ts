import { randomUUID } from 'node:crypto';
import { type FunctionTool, type RunContext, tool } from '@openai/agents-core';
import { SkeinEmitter, type Tool, type ToolExecutionContext } from '@skein/core';
import { isToolOutput, type ToolThreadContext, ToolTimeoutError } from '@skein/spec';
import { ToolConversionError } from '../errors/tool-conversion-error.js';
import { isExecutionContext, skeinContextOf } from './skein-context-carrier.js';

export interface ToFunctionToolOptions {
  /** The FunctionTool's name; default the Skein tool's own. */
  readonly name?: string;
  /**
   * The Skein thread a call from an Agents SDK run belongs to. Default: thread id `openai-agents`
   * and `runContext.context` as the variables when it is an object.
   */
  readonly thread?: (runContext: RunContext<unknown> | undefined) => ToolThreadContext;
  /** Receives the `warning` events the tool emits; default a new emitter nobody listens to. */
  readonly emitter?: SkeinEmitter;
  /** The text an Agents SDK run shows the model when the tool throws. */
  readonly formatError?: (error: unknown) => string;
}

// Not exported by the SDK's root; the third argument of every FunctionTool's invoke.
type ToolCallDetails = Parameters<FunctionTool['invoke']>[2];

// The characters OpenAI accepts in a function name. The Agents SDK would quietly replace others
// (and `-`) with `_`; we keep the name exactly or refuse it.
const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function defaultThread(runContext: RunContext<unknown> | undefined): ToolThreadContext {
  const context = runContext?.context;
  const variables =
    typeof context === 'object' && context !== null && !Array.isArray(context)
      ? (context as Record<string, unknown>)
      : {};
  return { threadId: 'openai-agents', variables };
}

function defaultFormatError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `The tool failed: ${message}`;
}

function checkTool(skeinTool: Tool<never>, name: string): void {
  const label = typeof skeinTool?.name === 'string' ? skeinTool.name : '(unnamed)';
  if (typeof skeinTool !== 'object' || skeinTool === null)
    throw new ToolConversionError(label, 'skein', 'not an object');
  if (!FUNCTION_NAME.test(name))
    throw new ToolConversionError(
      label,
      'skein',
      `"${name}" is not a valid OpenAI function name (1-64 of a-z A-Z 0-9 _ -); pass { name }`,
    );
  if (typeof skeinTool.description !== 'string')
    throw new ToolConversionError(label, 'skein', 'description must be a string');
  const { parameters } = skeinTool;
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))
    throw new ToolConversionError(label, 'skein', 'parameters must be a JSON Schema object');
  if (typeof skeinTool.execute !== 'function')
    throw new ToolConversionError(label, 'skein', 'execute must be a function');
}

/**
 * An OpenAI Agents SDK `FunctionTool` (made with the SDK's own `tool()`) running a Skein tool, so
 * it can be handed to an Agents SDK agent. Name, description, schema, strictness, timeout,
 * `needsApproval` and `isEnabled` carry over. Converted back with `fromFunctionTool`, the tool
 * behaves as the original, errors and `ToolOutput`s included.
 */
export function toFunctionTool<TArgs>(
  skeinTool: Tool<TArgs>,
  options: ToFunctionToolOptions = {},
): FunctionTool<unknown, never, unknown> {
  const name = options.name ?? skeinTool?.name;
  checkTool(skeinTool as Tool<never>, name);
  const emitter = options.emitter ?? new SkeinEmitter();
  const threadOf = options.thread ?? defaultThread;
  const formatError = options.formatError ?? defaultFormatError;
  const threadFor = (runContext: RunContext<unknown> | undefined): ToolThreadContext =>
    skeinContextOf(runContext) ?? threadOf(runContext);

  const executionContext = (
    runContext: RunContext<unknown> | undefined,
    details: ToolCallDetails | undefined,
  ): ToolExecutionContext => {
    const carried = skeinContextOf(runContext);
    const signal = details?.signal ?? (isExecutionContext(carried) ? carried.signal : undefined);
    if (isExecutionContext(carried)) return signal ? { ...carried, signal } : carried;
    const thread = carried ?? threadOf(runContext);
    return {
      threadId: thread.threadId,
      variables: thread.variables,
      nodeId: 'openai-agents',
      toolCallId: details?.toolCall?.callId ?? `call_${randomUUID()}`,
      signal: signal ?? new AbortController().signal,
      emitter,
    };
  };

  const { needsApproval, isEnabled } = skeinTool;
  const common = {
    name,
    description: skeinTool.description,
    ...(typeof skeinTool.timeoutMs === 'number'
      ? {
          timeoutMs: skeinTool.timeoutMs,
          // Back in Skein the timeout reads as the engine's own; an agent run gets the SDK's text.
          timeoutErrorFunction: (runContext: RunContext<unknown>, error: { message: string }) => {
            if (skeinContextOf(runContext) !== undefined)
              throw new ToolTimeoutError(name, skeinTool.timeoutMs ?? 0);
            return error.message;
          },
        }
      : {}),
    ...(needsApproval === undefined
      ? {}
      : {
          needsApproval:
            typeof needsApproval === 'boolean'
              ? needsApproval
              : async (runContext: RunContext<unknown>, input: unknown) =>
                  Boolean(await needsApproval(input as TArgs, threadFor(runContext))),
        }),
    ...(isEnabled === undefined
      ? {}
      : {
          isEnabled: async ({ runContext }: { runContext: RunContext<unknown> }) =>
            Boolean(await isEnabled(threadFor(runContext))),
        }),
    execute: async (
      input: unknown,
      runContext?: RunContext<unknown>,
      details?: ToolCallDetails,
    ) => {
      const result = await skeinTool.execute(input as TArgs, executionContext(runContext, details));
      // Back in Skein (fromFunctionTool) the ToolOutput keeps its error flag and data; an Agents
      // SDK run only takes text.
      if (isToolOutput(result) && skeinContextOf(runContext) === undefined) return result.content;
      return result;
    },
    errorFunction: (runContext: RunContext<unknown>, error: unknown) => {
      if (skeinContextOf(runContext) !== undefined) throw error;
      return formatError(error);
    },
  };
  const parameters = structuredClone(skeinTool.parameters) as Record<string, unknown>;
  let functionTool: FunctionTool<unknown, never, unknown>;
  try {
    functionTool = (
      skeinTool.strict === true
        ? tool({ ...common, parameters: parameters as never, strict: true })
        : tool({ ...common, parameters: parameters as never, strict: false })
    ) as FunctionTool<unknown, never, unknown>;
  } catch (error) {
    throw new ToolConversionError(name, 'skein', 'the Agents SDK refused it', error);
  }
  // tool() rewrites `-` to `_`; the name was checked above, so keep it exactly.
  return functionTool.name === name ? functionTool : { ...functionTool, name };
}
