import { type ConversationManager, type OperationResult, SUMMARY_KIND } from '@skein/conversation';
import type {
  ContextProcessorNode,
  ContextProcessorOperation,
  SummarizeContextOperation,
} from '../workflow/types.js';
import type { NodeHandler, NodeRunContext } from './node-handler.js';
import { summarizeConversation } from './summarize.js';

/** Any operation a workflow applies without a model call. */
type PlainOperation = Exclude<ContextProcessorOperation, SummarizeContextOperation>;

/**
 * Skein's clear: drop the conversation from view (keeping the visible system messages when asked,
 * the default) and start a batch with the initial tools, so it shows their description exactly
 * once whatever `keepSystemMessage` says. The original design's handler, which keeps every stored
 * system message, also runs unchanged on the conversation's API (see the test beside this file).
 */
export function handleClearOperation(
  conversationManager: ConversationManager,
  config: { keepSystemMessage?: boolean } = {},
): OperationResult {
  // CLEAR in @skein/conversation starts the new batch through the same path as
  // startNewBatchWithInitialTools (kept system messages first, then the description).
  return conversationManager.applyOperation({
    type: 'CLEAR',
    keepSystemMessage: config.keepSystemMessage ?? true,
  });
}

/** Applies a conversation operation, CLEAR through `handleClearOperation`. */
export function applyContextOperation(
  conversation: ConversationManager,
  op: PlainOperation,
): OperationResult {
  if (op.type === 'CLEAR') return handleClearOperation(conversation, op);
  return conversation.applyOperation(op);
}

/** What an operation changed, as `operation:applied` reports it and the node's output lists. */
export function reportOperation(ctx: NodeRunContext, result: OperationResult) {
  const { thread, services } = ctx;
  const summary =
    result.type === 'SUMMARIZE'
      ? result.stored
          .map((position) => thread.conversation.getStoredMessage(position))
          .find((message) => message?.metadata?.kind === SUMMARY_KIND)
      : undefined;
  const summarized = summary?.metadata?.summarized;
  services.emitter.emit('operation:applied', {
    threadId: thread.threadId,
    nodeId: ctx.node.id,
    operation: result.type,
    visibleBefore: result.visibleBefore,
    visibleAfter: result.visibleAfter,
    batch: result.batch,
    ...(typeof summarized === 'number' ? { summarized } : {}),
  });
  return {
    operation: result.type,
    visibleBefore: result.visibleBefore,
    visibleAfter: result.visibleAfter,
    batch: result.batch,
  };
}

/**
 * Runs the node's context operations in order; its output is what each changed. A SUMMARIZE
 * makes its model call first (the only operation that waits); one with nothing to summarise
 * changes nothing and reports `skipped`.
 */
export const contextProcessorHandler: NodeHandler<ContextProcessorNode> = async (ctx) => {
  const results: unknown[] = [];
  let summaries = 0;
  for (const op of ctx.node.config.operations) {
    if ('type' in op && op.type === 'SUMMARIZE') {
      const result = await summarizeConversation(ctx, op, summaries++);
      results.push(
        result ? reportOperation(ctx, result) : { operation: 'SUMMARIZE', skipped: true },
      );
    } else results.push(reportOperation(ctx, applyContextOperation(ctx.thread.conversation, op)));
  }
  return { kind: 'next', output: results };
};
