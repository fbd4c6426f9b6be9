import {
  type ContentPart,
  findNonJsonValue,
  type LLMMessage,
  SkeinError,
  type ToolCall,
  ToolTimeoutError,
} from '@skein/spec';
import { toolNotFound } from '../errors/not-found.js';
import { ToolError } from '../errors/tool-error.js';
import type { SkeinEmitter } from '../events/emitter.js';
import { checkOptionalNumber } from '../util/check-number.js';
import type { ArgumentValidator } from './argument-validator.js';
import { isToolOutput, type Tool } from './tool.js';
import { toolMessageContent } from './tool-content.js';
import { isToolInputPause, type ToolInputAnswer, type ToolInputRequest } from './tool-input.js';
import { checkInputRequest } from './tool-input-check.js';
import { MAX_TIMER_MS, TIMEOUT_RANGE, timeoutProblem } from './tool-timeout.js';
import type { WorkflowCall, WorkflowCaller } from './workflow-call.js';

type AnyTool = Tool;

export interface ToolRunContext {
  readonly threadId: string;
  readonly nodeId: string;
  /** The run's signal; absent when nothing can cancel the run. */
  readonly signal?: AbortSignal | undefined;
  readonly variables: Readonly<Record<string, unknown>>;
  /** The tools offered for this call, by name. */
  readonly tools: ReadonlyMap<string, AnyTool>;
  /** The thread's step, for the tools' idempotency keys. */
  readonly step?: number;
  /**
   * Idempotency keys by call id, when the node can name calls by something a re-run repeats
   * (their round and position in the model's message) rather than by provider-made ids.
   */
  readonly idempotencyKeys?: ReadonlyMap<string, string>;
  /** Runs a workflow as a child thread of the calling node (see `workflowTool`). */
  readonly callWorkflow?: WorkflowCaller;
  /** Answers by call id, for calls that asked for one (`pauseForInput`) before the thread paused. */
  readonly answers?: ReadonlyMap<string, ToolInputAnswer>;
  /**
   * Calls whose `tool:result` the caller emits itself, once guardrails have seen the result (a
   * redacted result must not reach listeners as it was); their results carry `durationMs`.
   */
  readonly heldResults?: ReadonlySet<string>;
}

export interface ToolRunResult {
  readonly message: LLMMessage;
  readonly isError: boolean;
  readonly errorCode?: string;
  /**
   * Set when the tool asked for a person's answer (`pauseForInput`): the call has no result yet,
   * and `message` is not one to store.
   */
  readonly pause?: ToolInputRequest;
  /** How long the call took, for a call whose `tool:result` the caller emits (`heldResults`). */
  readonly durationMs?: number;
}

function bindCaller(caller: WorkflowCaller, toolCallId: string, signal: AbortSignal) {
  return (request: WorkflowCall) => caller({ ...request, toolCallId, signal });
}

/** The text a model reads when a call fails: short, with a stable code to branch on. */
export function toolErrorContent(code: string, message: string): string {
  return `Error [${code}]: ${message}`;
}

/** The code of a tool result that JSON, and so every store, cannot carry. */
export const TOOL_RESULT_NOT_JSON = 'TOOL_RESULT_NOT_JSON';

/**
 * The text of a plain (not `ToolOutput`) result, or the reason it has none: JSON.stringify would
 * otherwise throw on a BigInt, turn NaN into null, or a cycle into `[object Object]`.
 */
function resultText(value: unknown): { text: string } | { problem: string } {
  if (typeof value === 'string') return { text: value };
  if (value === undefined) return { text: '' };
  const found = findNonJsonValue(value, 'result');
  if (found) return { problem: `${found.path} is ${found.reason}` };
  return { text: JSON.stringify(value) };
}

/** How much longer the engine waits for a tool that enforces its own timeout (`ownsTimeout`). */
const OWNED_TIMEOUT_GRACE_MS = 1_000;

/**
 * Runs `work` with a time limit, aborting the tool's own signal when the limit passes. The limit
 * reported is `timeoutMs`; the timer may wait `waitMs`, longer, when the tool keeps its own.
 */
async function withTimeout<T>(
  work: (signal: AbortSignal) => Promise<T>,
  parent: AbortSignal | undefined,
  timeoutMs: number,
  waitMs: number,
  toolName: string,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let onParentAbort: (() => void) | undefined;
  const stop = new Promise<never>((_, reject) => {
    if (parent) {
      onParentAbort = () => {
        controller.abort(parent.reason);
        reject(parent.reason);
      };
      parent.addEventListener('abort', onParentAbort, { once: true });
    }
    timer = setTimeout(() => {
      const error = new ToolTimeoutError(toolName, timeoutMs);
      controller.abort(error);
      reject(error);
    }, waitMs);
  });
  try {
    return await Promise.race([work(controller.signal), stop]);
  } finally {
    clearTimeout(timer);
    if (onParentAbort) parent?.removeEventListener('abort', onParentAbort);
  }
}

/**
 * Runs the tool calls a model asked for. Every failure — an unknown tool, a call the adapter could
 * not make whole, arguments that are not JSON or do not match the schema, a throw, a timeout —
 * becomes a `tool` message carrying the error, so the model can read it and the thread goes on.
 * Only cancellation of the thread propagates.
 */
export class ToolRunner {
  readonly #validator: ArgumentValidator;
  readonly #emitter: SkeinEmitter;
  readonly #defaultTimeoutMs: number;

  constructor(options: {
    validator: ArgumentValidator;
    emitter: SkeinEmitter;
    defaultTimeoutMs?: number;
  }) {
    this.#validator = options.validator;
    this.#emitter = options.emitter;
    this.#defaultTimeoutMs = checkOptionalNumber(
      'defaultTimeoutMs',
      options.defaultTimeoutMs,
      TIMEOUT_RANGE,
      60_000,
    );
  }

  async run(call: ToolCall, context: ToolRunContext): Promise<ToolRunResult> {
    const started = performance.now();
    const { threadId, nodeId } = context;
    this.#emitter.emit('tool:call', {
      threadId,
      nodeId,
      toolCallId: call.id,
      name: call.name,
      arguments: call.arguments,
    });
    const fail = (code: string, message: string, data?: unknown): ToolRunResult => {
      this.#emitter.emit('tool:error', {
        threadId,
        nodeId,
        toolCallId: call.id,
        name: call.name,
        code,
        message,
      });
      return this.#finish(
        call,
        context,
        toolErrorContent(code, message),
        true,
        started,
        code,
        data,
      );
    };

    if (call.error !== undefined) return fail('TOOL_CALL_INVALID', call.error);
    const tool = context.tools.get(call.name);
    if (!tool) {
      const known = [...context.tools.keys()];
      const error = toolNotFound(
        call.name,
        `available here: ${known.length ? known.join(', ') : 'none'}`,
      );
      return fail(error.code, error.message);
    }
    const checked =
      tool.validateArguments === false
        ? this.#validator.parse(call.arguments)
        : this.#validator.check(tool, call.arguments);
    if (!checked.ok) {
      const error = ToolError.argumentsInvalid(tool.name, checked.problems);
      return fail(error.code, error.message);
    }
    // A dynamic tool never passed a registry: Node would fire a bad limit after 1 ms.
    const badTimeout =
      tool.timeoutMs === undefined ? undefined : timeoutProblem('timeoutMs', tool.timeoutMs);
    if (badTimeout) {
      const error = ToolError.invalidTool(tool.name, badTimeout);
      return fail(error.code, error.message);
    }
    if (context.signal?.aborted) throw context.signal!.reason;
    try {
      const timeoutMs = tool.timeoutMs ?? this.#defaultTimeoutMs;
      const waitMs =
        tool.ownsTimeout === true && tool.timeoutMs !== undefined
          ? Math.min(MAX_TIMER_MS, timeoutMs + OWNED_TIMEOUT_GRACE_MS)
          : timeoutMs;
      const value = await withTimeout(
        async (signal) =>
          (tool.execute as (args: unknown, ctx: unknown) => unknown)(checked.args, {
            threadId,
            nodeId,
            toolCallId: call.id,
            signal,
            variables: context.variables,
            emitter: this.#emitter,
            idempotencyKey:
              context.idempotencyKeys?.get(call.id) ??
              `${threadId}:${nodeId}:${context.step ?? 0}:${call.id}`,
            ...(context.callWorkflow
              ? { callWorkflow: bindCaller(context.callWorkflow, call.id, signal) }
              : {}),
            ...(context.answers?.has(call.id) ? { answered: context.answers.get(call.id) } : {}),
          }),
        context.signal,
        timeoutMs,
        waitMs,
        tool.name,
      );
      if (isToolInputPause(value)) {
        const checked = checkInputRequest(value);
        if ('problem' in checked)
          return fail('TOOL_FAILED', `"${tool.name}" asked for input wrongly: ${checked.problem}`);
        return {
          message: { role: 'tool', content: '', toolCallId: call.id, name: call.name },
          isError: false,
          pause: checked.request,
        };
      }
      if (isToolOutput(value)) {
        if (value.isError) {
          this.#emitter.emit('tool:error', {
            threadId,
            nodeId,
            toolCallId: call.id,
            name: call.name,
            code: 'TOOL_FAILED',
            message: value.content,
          });
          return this.#finish(
            call,
            context,
            value.content,
            true,
            started,
            'TOOL_FAILED',
            value.data,
            value.parts,
          );
        }
        return this.#finish(
          call,
          context,
          value.content,
          false,
          started,
          undefined,
          value.data,
          value.parts,
        );
      }
      const text = resultText(value);
      if ('problem' in text)
        return fail(
          TOOL_RESULT_NOT_JSON,
          `the result of "${tool.name}" could not be stored: ${text.problem}`,
        );
      return this.#finish(call, context, text.text, false, started);
    } catch (error) {
      if (context.signal?.aborted) throw context.signal!.reason ?? error;
      const code = SkeinError.isInstance(error) ? error.code : 'TOOL_FAILED';
      const message = error instanceof Error ? error.message : String(error);
      return fail(code, message);
    }
  }

  /** Runs calls with at most `concurrency` at once; results come back in call order. */
  async runAll(
    calls: readonly ToolCall[],
    context: ToolRunContext,
    concurrency: number,
  ): Promise<ToolRunResult[]> {
    const results = new Array<ToolRunResult>(calls.length);
    let next = 0;
    const worker = async () => {
      while (next < calls.length) {
        const index = next++;
        results[index] = await this.run(calls[index]!, context);
      }
    };
    await Promise.all(
      Array.from({ length: Math.min(Math.max(1, concurrency), calls.length) }, worker),
    );
    return results;
  }

  #finish(
    call: ToolCall,
    context: ToolRunContext,
    content: string,
    isError: boolean,
    started: number,
    errorCode?: string,
    data?: unknown,
    parts?: readonly ContentPart[],
  ): ToolRunResult {
    const durationMs = performance.now() - started;
    const message: LLMMessage = {
      role: 'tool',
      content: toolMessageContent(content, parts),
      toolCallId: call.id,
      name: call.name,
      // No timings here: stored messages must be the same on a replayed run.
      metadata: {
        isError,
        ...(errorCode ? { errorCode } : {}),
        ...(data === undefined ? {} : { data }),
      },
    };
    if (context.heldResults?.has(call.id))
      return { message, isError, ...(errorCode ? { errorCode } : {}), durationMs };
    this.#emitter.emit('tool:result', {
      threadId: context.threadId,
      nodeId: context.nodeId,
      toolCallId: call.id,
      name: call.name,
      content,
      isError,
      durationMs,
    });
    return { message, isError, ...(errorCode ? { errorCode } : {}) };
  }
}
