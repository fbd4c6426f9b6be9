import { ConversationError } from '@skein/conversation';
import { describeValue as describe, type LLMMessage, ROLES } from '@skein/spec';

/**
 * Rejects, before anything is sent, a conversation a provider would refuse: an assistant tool
 * call without a non-empty string id (the "expected a string, but got null" rejection), a tool
 * message that answers no earlier call, or a message of the wrong shape. Names the message index.
 */
export function validateConversation(messages: readonly LLMMessage[]): void {
  if (!Array.isArray(messages)) {
    throw ConversationError.invalidConversation(-1, 'request.messages is not an array');
  }
  const callIds = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const message: unknown = messages[i];
    if (typeof message !== 'object' || message === null) {
      throw ConversationError.invalidConversation(i, 'not a message object');
    }
    const m = message as LLMMessage;
    if (!ROLES.includes(m.role)) {
      throw ConversationError.invalidConversation(i, `unknown role ${describe(m.role)}`);
    }
    // The parts themselves are checked as they are mapped, by an error naming the part.
    if (typeof m.content !== 'string' && !Array.isArray(m.content)) {
      throw ConversationError.invalidConversation(
        i,
        `content must be a string or a list of parts, got ${describe(m.content)}`,
      );
    }
    if (m.toolCalls !== undefined) {
      if (m.role !== 'assistant') {
        throw ConversationError.invalidConversation(
          i,
          `a ${m.role} message cannot carry toolCalls`,
        );
      }
      if (!Array.isArray(m.toolCalls)) {
        throw ConversationError.invalidConversation(i, 'toolCalls must be an array');
      }
      for (let j = 0; j < m.toolCalls.length; j++) {
        const call: unknown = m.toolCalls[j];
        const c = (typeof call === 'object' && call !== null ? call : {}) as Record<
          string,
          unknown
        >;
        if (typeof c.id !== 'string' || c.id.length === 0) {
          throw ConversationError.invalidConversation(
            i,
            `toolCalls[${j}].id must be a non-empty string, got ${describe(c.id)}; the provider would reject the request`,
            { toolCall: j },
          );
        }
        if (typeof c.name !== 'string') {
          throw ConversationError.invalidConversation(i, `toolCalls[${j}].name must be a string`, {
            toolCall: j,
          });
        }
        if (typeof c.arguments !== 'string') {
          throw ConversationError.invalidConversation(
            i,
            `toolCalls[${j}].arguments must be a JSON string, got ${describe(c.arguments)}`,
            { toolCall: j },
          );
        }
        callIds.add(c.id);
      }
    }
    if (m.role === 'tool') {
      if (typeof m.toolCallId !== 'string' || m.toolCallId.length === 0) {
        throw ConversationError.invalidConversation(
          i,
          `a tool message needs a non-empty toolCallId, got ${describe(m.toolCallId)}`,
        );
      }
      if (!callIds.has(m.toolCallId)) {
        throw ConversationError.invalidConversation(
          i,
          `the tool message answers tool call "${m.toolCallId}", which no earlier assistant message made`,
          { toolCallId: m.toolCallId },
        );
      }
    }
  }
}
