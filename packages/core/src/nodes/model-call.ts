import type {
  LLMCallOptions,
  LLMClient,
  LLMRequest,
  LLMResponse,
  LLMStreamEvent,
} from '@skein/spec';
import { LLMCallError } from '../errors/llm-call-error.js';
import type { RetryPolicy } from '../workflow/types.js';
import type { NodeRunContext } from './node-handler.js';
import { RetryExhausted, withRetry } from './retry.js';

/**
 * One model call of a node, as every model call is made: `llm:request` first, the answer's
 * tokens and tool inputs forwarded as they stream, retries by `retry` (each announced as an
 * `LLM_RETRY` warning), and `LLMCallError` once they are spent. A summary call (`request.purpose`)
 * streams nothing: its text is not a turn a page should show as it is written.
 */
export async function callModel(
  ctx: NodeRunContext,
  llm: LLMClient,
  request: LLMRequest,
  round: number,
  retry: RetryPolicy | undefined,
  /** Instead of the run's signal (a call that guardrails beside it may cancel). */
  callSignal?: AbortSignal,
): Promise<LLMResponse> {
  const { thread, node, services } = ctx;
  const { emitter } = services;
  const signal = callSignal ?? ctx.signal;
  const base = { threadId: thread.threadId, nodeId: node.id };
  emitter.emit('llm:request', {
    threadId: base.threadId,
    nodeId: base.nodeId,
    round,
    messages: request.messages,
    tools: request.tools,
    ...(request.model === undefined ? {} : { model: request.model }),
    ...(request.purpose === undefined ? {} : { purpose: request.purpose }),
  });
  const streams = request.purpose === undefined;
  const onEvent = (event: LLMStreamEvent) => {
    if (event.type === 'text-delta') {
      if (streams)
        emitter.emit('llm:token', {
          threadId: base.threadId,
          nodeId: base.nodeId,
          delta: event.delta,
        });
    } else if (event.type === 'tool-call-delta') {
      if (streams)
        emitter.emit('llm:tool-input', {
          threadId: base.threadId,
          nodeId: base.nodeId,
          index: event.index,
          ...(event.id === undefined ? {} : { toolCallId: event.id }),
          ...(event.name === undefined ? {} : { name: event.name }),
          delta: event.argumentsDelta,
        });
    } else if (event.type === 'warning')
      emitter.emit('warning', {
        ...base,
        code: event.code,
        message: event.message,
        ...(event.details ? { details: event.details } : {}),
      });
  };
  const options: LLMCallOptions = signal ? { signal, onEvent } : { onEvent };
  try {
    return await withRetry(
      () => llm.generate(request, options),
      retry,
      signal,
      (error, attempt, delayMs) =>
        emitter.emit('warning', {
          ...base,
          code: 'LLM_RETRY',
          message: `${request.purpose === 'summary' ? 'summary ' : ''}model call failed (attempt ${attempt}), retrying in ${delayMs} ms: ${error instanceof Error ? error.message : String(error)}`,
        }),
      `node "${node.id}"`,
    );
  } catch (error) {
    if (error instanceof RetryExhausted)
      throw new LLMCallError(node.id, error.attempts, error.lastError);
    throw error;
  }
}
