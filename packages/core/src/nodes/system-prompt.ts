import type { LLMMessage } from '@skein/spec';
import type { ThreadContext } from '../thread/thread-context.js';

/** What marks a node's system prompt among the stored messages. */
const KIND = 'system-prompt';

function isPromptOf(message: LLMMessage, nodeId: string): boolean {
  return (
    message.role === 'system' &&
    message.metadata?.kind === KIND &&
    message.metadata.nodeId === nodeId
  );
}

/**
 * Shows an LLM node's system prompt once in the current view. A node visited again (a chat turn,
 * a loop) finds its prompt still visible and adds nothing; a prompt that renders differently now
 * takes the old one's place; a view that lost it (a CLEAR without `keepSystemMessage`, a new
 * batch) gets it again, once.
 */
export function showSystemPrompt(thread: ThreadContext, nodeId: string, content: string): void {
  const conversation = thread.conversation;
  const visible = conversation.getMessages();
  const at = visible.findIndex((m) => isPromptOf(m, nodeId));
  const message: LLMMessage = { role: 'system', content, metadata: { kind: KIND, nodeId } };
  if (at < 0) {
    // After the system messages the view starts with (the tool description, earlier prompts):
    // providers expect instructions before the turns they govern.
    let head = 0;
    while (head < visible.length && visible[head]!.role === 'system') head++;
    if (head === visible.length) conversation.addMessage(message);
    else conversation.applyOperation({ type: 'INSERT', position: head, message });
  } else if (visible[at]!.content !== content)
    conversation.applyOperation({ type: 'REPLACE', position: at, message });
}
