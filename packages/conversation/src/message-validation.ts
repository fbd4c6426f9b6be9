import type { CheckContentOptions, LLMMessage, MessageContent, Role, ToolCall } from '@skein/spec';
import { ConversationError } from './errors/conversation-error.js';
import { frozenJsonCopy } from './frozen-json.js';
import { storedContent } from './message-content.js';

const ROLE_SET: ReadonlySet<string> = new Set<Role>(['system', 'user', 'assistant', 'tool']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkToolCall(call: unknown, where: string): ToolCall {
  if (!isPlainObject(call))
    throw ConversationError.invalidMessage(`${where} must be an object`, where);
  if (typeof call.id !== 'string' || call.id.length === 0)
    throw ConversationError.invalidMessage(`${where}.id must be a non-empty string`, `${where}.id`);
  if (typeof call.name !== 'string')
    throw ConversationError.invalidMessage(`${where}.name must be a string`, `${where}.name`);
  if (typeof call.arguments !== 'string')
    throw ConversationError.invalidMessage(
      `${where}.arguments must be a JSON string`,
      `${where}.arguments`,
    );
  if (call.error !== undefined && typeof call.error !== 'string')
    throw ConversationError.invalidMessage(`${where}.error must be a string`, `${where}.error`);
  const copy: ToolCall =
    call.error === undefined
      ? { id: call.id, name: call.name, arguments: call.arguments }
      : { id: call.id, name: call.name, arguments: call.arguments, error: call.error };
  return Object.freeze(copy);
}

/**
 * Checks a message and returns a deeply frozen copy, so nobody can change history through a
 * reference they kept or one `getMessages()` handed out. `where` names the message in error
 * messages.
 */
export function normalizeMessage(
  input: unknown,
  where = 'message',
  contentOptions: CheckContentOptions = {},
): LLMMessage {
  if (!isPlainObject(input))
    throw ConversationError.invalidMessage(`${where} must be an object`, where);
  const role = input.role;
  if (role === undefined || role === null || role === '')
    throw ConversationError.invalidMessage(`${where} has no role`, `${where}.role`);
  if (typeof role !== 'string' || !ROLE_SET.has(role))
    throw ConversationError.invalidMessage(
      `${where}.role "${String(role)}" is not one of system, user, assistant, tool`,
      `${where}.role`,
      { role },
    );
  const content = input.content;
  if (
    typeof content !== 'string' &&
    !Array.isArray(content) &&
    content !== null &&
    content !== undefined
  )
    throw ConversationError.invalidMessage(
      `${where}.content must be a string or an array of parts`,
      `${where}.content`,
    );

  const message: {
    role: Role;
    content: MessageContent;
    toolCalls?: readonly ToolCall[];
    toolCallId?: string;
    name?: string;
    metadata?: Readonly<Record<string, unknown>>;
  } = { role: role as Role, content: storedContent(content, `${where}.content`, contentOptions) };

  if (input.toolCalls !== undefined) {
    if (role !== 'assistant')
      throw ConversationError.invalidMessage(
        `${where}.toolCalls is only allowed on assistant messages`,
        `${where}.toolCalls`,
      );
    if (!Array.isArray(input.toolCalls))
      throw ConversationError.invalidMessage(
        `${where}.toolCalls must be an array`,
        `${where}.toolCalls`,
      );
    const list: readonly unknown[] = input.toolCalls;
    const calls: ToolCall[] = [];
    // A plain loop: map() skips holes and would store a sparse array.
    for (let i = 0; i < list.length; i++) {
      const field = `${where}.toolCalls[${i}]`;
      if (!(i in list))
        throw ConversationError.invalidMessage(`${field} is a hole in a sparse array`, field);
      calls.push(checkToolCall(list[i], field));
    }
    if (calls.length > 0) message.toolCalls = Object.freeze(calls);
  }
  if (role === 'tool') {
    if (typeof input.toolCallId !== 'string' || input.toolCallId.length === 0)
      throw ConversationError.invalidMessage(
        `${where} is a tool message without toolCallId`,
        `${where}.toolCallId`,
      );
    message.toolCallId = input.toolCallId;
  } else if (input.toolCallId !== undefined) {
    throw ConversationError.invalidMessage(
      `${where}.toolCallId is only allowed on tool messages`,
      `${where}.toolCallId`,
    );
  }
  if (input.name !== undefined) {
    if (typeof input.name !== 'string')
      throw ConversationError.invalidMessage(`${where}.name must be a string`, `${where}.name`);
    message.name = input.name;
  }
  if (input.metadata !== undefined) {
    if (!isPlainObject(input.metadata))
      throw ConversationError.invalidMessage(
        `${where}.metadata must be an object`,
        `${where}.metadata`,
      );
    const copied = frozenJsonCopy(input.metadata, `${where}.metadata`);
    if ('problem' in copied) {
      const { path, reason } = copied.problem;
      throw ConversationError.invalidMessage(
        `${path} is ${reason}; metadata must come back unchanged from JSON (checkpoints store it as JSON)`,
        path,
      );
    }
    message.metadata = copied.copy as Readonly<Record<string, unknown>>;
  }
  return Object.freeze(message);
}
