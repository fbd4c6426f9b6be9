import type { OperationResult } from '@skein/conversation';
import type { LLMClient, LLMRequest } from '@skein/spec';
import { contentText } from '@skein/spec';
import { NodeError } from '../errors/node-error.js';
import type { SummaryOptions } from '../workflow/types.js';
import { withAttachmentBytes } from './attachment-bytes.js';
import { callModel } from './model-call.js';
import type { NodeRunContext } from './node-handler.js';
import { DEFAULT_SUMMARY_PROMPT, summaryRequestMessages } from './summary-request.js';

/**
 * Has the model summarise what a SUMMARIZE keeping `keepTurns` turns would hide, then applies
 * it. The conversation changes only once the call has answered, in one operation: a failed or
 * interrupted call leaves no half summary, and a node run again after a crash starts from the
 * checkpoint before it, so one summary is stored whatever ran before. Undefined when there is
 * nothing to summarise (no call is made).
 */
export async function summarizeConversation(
  ctx: NodeRunContext,
  options: SummaryOptions,
  round: number,
): Promise<OperationResult | undefined> {
  const { thread, node, services } = ctx;
  const keepTurns = options.keepTurns ?? 0;
  const source = thread.conversation.getMessagesToSummarize(keepTurns);
  if (source.length === 0) return undefined;
  const attachments = options.attachments ?? 'placeholder';
  const messages = summaryRequestMessages(
    attachments === 'send'
      ? await withAttachmentBytes(source, thread.threadId, services.readAttachment)
      : source,
    options.prompt ?? DEFAULT_SUMMARY_PROMPT,
    attachments,
  );
  const request: LLMRequest = {
    threadId: thread.threadId,
    nodeId: node.id,
    purpose: 'summary',
    messages,
    tools: [],
    ...(options.model === undefined ? {} : { model: options.model }),
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
  };
  const response = await callModel(
    ctx,
    nonEmpty(services.llmFor(node), node.id),
    request,
    round,
    options.retry,
  );
  if (response.usage) thread.conversation.recordUsage(response.usage);
  const summary = contentText(response.message.content).trim();
  services.emitter.emit('llm:response', {
    threadId: thread.threadId,
    nodeId: node.id,
    message: { role: 'assistant', content: summary },
    ...(response.usage ? { usage: response.usage } : {}),
    finishReason: response.finishReason,
    round,
    purpose: 'summary',
  });
  return thread.conversation.applyOperation({
    type: 'SUMMARIZE',
    summary,
    keepTurns,
    ...(options.role === undefined ? {} : { role: options.role }),
  });
}

/** `llm` refusing an answer with no text inside the call, so the retry policy asks again. */
function nonEmpty(llm: LLMClient, nodeId: string): LLMClient {
  return {
    name: llm.name,
    generate: async (request, options) => {
      const response = await llm.generate(request, options);
      if (contentText(response.message.content).trim() === '')
        throw NodeError.summaryEmpty(nodeId, response.message.toolCalls?.length ?? 0);
      return response;
    },
  };
}
