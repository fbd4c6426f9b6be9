import { Agent, type FunctionTool, invokeFunctionTool, RunContext } from '@openai/agents-core';
import type { Tool, ToolExecutionContext } from '@skein/core';
import type { JsonSchema } from '@skein/spec';
import { SkeinError, ToolExecutionError, type ToolThreadContext } from '@skein/spec';
import { ToolConversionError } from '../errors/tool-conversion-error.js';
import { fromFunctionToolOutput } from './function-tool-output.js';
import { attachSkeinContext } from './skein-context-carrier.js';

export interface FromFunctionToolOptions {
  /** `Tool.source` of the converted tool; default `openai-agents`. */
  readonly source?: string;
  /**
   * Builds `RunContext.context` (what the FunctionTool sees as `runContext.context`) from the Skein
   * thread; called with the full `ToolExecutionContext` when the tool runs. Default: the thread's
   * variables.
   */
  readonly context?: (thread: ToolThreadContext) => unknown;
  /**
   * The Agents SDK `Agent` handed to `isEnabled` predicates; default an `Agent` named `skein`.
   * Typed by shape so an agent from another copy of the SDK fits.
   */
  readonly agent?: { readonly name: string };
}

/**
 * What `fromFunctionTool` needs of an Agents SDK `FunctionTool`. Parameters are typed `never` so a
 * tool made by another copy of the SDK (e.g. `@openai/agents` bundling its own
 * `@openai/agents-core`) fits too: their `RunContext` classes are different types.
 */
export interface FunctionToolLike {
  readonly type: 'function';
  readonly name: string;
  readonly description: string;
  readonly parameters: object;
  readonly strict: boolean;
  readonly timeoutMs?: number;
  readonly invoke: (runContext: never, input: string, details?: never) => Promise<unknown>;
  readonly needsApproval?: (runContext: never, input: never, callId?: string) => Promise<boolean>;
  readonly isEnabled?: (runContext: never, agent: never) => Promise<boolean>;
}

type AnyFunctionTool = FunctionTool<unknown, never, unknown>;

function checkFunctionTool(tool: unknown): asserts tool is AnyFunctionTool {
  const candidate = tool as Partial<AnyFunctionTool> | null;
  const name =
    typeof candidate?.name === 'string' && candidate.name.length > 0 ? candidate.name : '(unnamed)';
  if (typeof tool !== 'object' || tool === null)
    throw new ToolConversionError(name, 'openai-agents', 'not an object');
  if (candidate?.type !== 'function')
    throw new ToolConversionError(
      name,
      'openai-agents',
      `only function tools run locally; this one has type "${String(candidate?.type)}"`,
    );
  if (typeof candidate.name !== 'string' || candidate.name.length === 0)
    throw new ToolConversionError(name, 'openai-agents', 'name must be a non-empty string');
  if (typeof candidate.invoke !== 'function')
    throw new ToolConversionError(name, 'openai-agents', 'invoke must be a function');
  const parameters = candidate.parameters as unknown;
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters))
    throw new ToolConversionError(name, 'openai-agents', 'parameters must be a JSON Schema object');
}

/** The SDK's own `ToolTimeoutError` (timeoutBehavior `raise_exception`), from any copy of the SDK. */
function isSdkTimeout(error: unknown): error is Error & { timeoutMs: number } {
  return (
    error instanceof Error &&
    error.name === 'ToolTimeoutError' &&
    typeof (error as { timeoutMs?: unknown }).timeoutMs === 'number' &&
    !SkeinError.isInstance(error)
  );
}

/**
 * A Skein tool running an OpenAI Agents SDK `FunctionTool` through the SDK's own invoke path (its
 * argument parsing, `errorFunction`, timeout and abort handling). The tool owns its timeout
 * (`ownsTimeout`), so the model reads the SDK's timeout text, not the engine's. `isEnabled` and
 * `needsApproval` are asked per thread; the engine pauses for approval before running a tool that
 * needs it.
 */
export function fromFunctionTool(
  functionTool: FunctionToolLike,
  options: FromFunctionToolOptions = {},
): Tool {
  checkFunctionTool(functionTool);
  const ft: AnyFunctionTool = functionTool;
  const buildContext = options.context ?? ((thread: ToolThreadContext) => thread.variables);
  let agent = options.agent;
  const agentForPredicates = (): { readonly name: string } => {
    agent ??= new Agent({ name: 'skein' });
    return agent;
  };
  const runContextFor = (thread: ToolThreadContext | ToolExecutionContext) =>
    attachSkeinContext(new RunContext<unknown>(buildContext(thread)), thread) as RunContext<never>;

  return {
    name: ft.name,
    description: typeof ft.description === 'string' ? ft.description : '',
    parameters: structuredClone(ft.parameters) as JsonSchema,
    strict: ft.strict === true,
    source: options.source ?? 'openai-agents',
    ...(typeof ft.timeoutMs === 'number' ? { timeoutMs: ft.timeoutMs, ownsTimeout: true } : {}),
    ...(typeof ft.needsApproval === 'function'
      ? {
          needsApproval: async (args: Record<string, unknown>, thread: ToolThreadContext) =>
            (await ft.needsApproval(runContextFor(thread), args as never, undefined)) === true,
        }
      : {}),
    ...(typeof ft.isEnabled === 'function'
      ? {
          isEnabled: async (thread: ToolThreadContext) =>
            (await ft.isEnabled(runContextFor(thread), agentForPredicates() as never)) === true,
        }
      : {}),
    async execute(args, context) {
      const input = JSON.stringify(args ?? {});
      let output: unknown;
      try {
        output = await invokeFunctionTool({
          tool: ft,
          runContext: runContextFor(context),
          input,
          details: {
            signal: context.signal,
            toolCall: {
              type: 'function_call',
              callId: context.toolCallId,
              name: ft.name,
              arguments: input,
            },
          },
        });
      } catch (error) {
        // The SDK's words, under the code the engine gives its own timeouts.
        if (isSdkTimeout(error) && !context.signal.aborted)
          throw new ToolExecutionError(error.message, {
            code: 'TOOL_TIMEOUT',
            cause: error,
            details: { toolName: ft.name, timeoutMs: error.timeoutMs },
          });
        throw error;
      }
      return fromFunctionToolOutput(output);
    },
  };
}
