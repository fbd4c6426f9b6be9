import { HttpRequestError } from '@skein/http';
import { type MessageContent, threadIdProblem } from '@skein/spec';
import { fromUIMessageParts } from '../parts/from-ui-message-parts.js';

/** A message of `useChat`'s body, as far as the handler reads it. */
export interface ClientMessage {
  readonly id: string;
  readonly role: 'user' | 'assistant' | 'system';
  readonly parts: readonly Record<string, unknown>[];
}

/** A decision the client made with `addToolApprovalResponse`. */
interface ClientApproval {
  readonly toolCallId: string;
  readonly approved: boolean;
  readonly reason?: string;
}

/** What a `useChat` POST asks for. */
export type ChatRequest =
  | {
      /** A new user message (`sendMessage`), or the answer to a pause for input. */
      readonly kind: 'message';
      readonly chatId: string;
      /** Its text and files as Skein content (checked: a bad file part is refused, named). */
      readonly message: { readonly id: string; readonly content: MessageContent };
      /** The messages before it: the client's idea of the stored conversation. */
      readonly history: readonly ClientMessage[];
    }
  | {
      /** Approval decisions (`addToolApprovalResponse`) resubmitted with the answer they belong to. */
      readonly kind: 'approval';
      readonly chatId: string;
      readonly answerId: string;
      readonly approvals: readonly ClientApproval[];
      readonly history: readonly ClientMessage[];
    }
  | {
      /** `regenerate`: the last answer again, from the checkpoint before it. */
      readonly kind: 'regenerate';
      readonly chatId: string;
      readonly history: readonly ClientMessage[];
    };

const MAX_CHAT_ID = 200;

/** A body that is not what `useChat` sends (400 `BAD_CHAT_REQUEST`): `field` names where. */
export function badChatRequest(
  field: string,
  problem: string,
): HttpRequestError<'BAD_CHAT_REQUEST'> {
  return new HttpRequestError('BAD_CHAT_REQUEST', `Chat request: ${field} ${problem}`, { field });
}
const ROLES = new Set(['user', 'assistant', 'system']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A chat id a thread may be named after: printable, short, and no branch separator. */
export function checkChatId(id: unknown, field = 'id'): string {
  if (typeof id !== 'string' || id === '' || id.length > MAX_CHAT_ID || /[\s/~]/.test(id))
    throw badChatRequest(
      field,
      `must be a string of 1 to ${MAX_CHAT_ID} characters without spaces, "/" or "~"`,
    );
  // A chat id is a thread id: one a store would change (a lone surrogate) is refused here too.
  const problem = threadIdProblem(id);
  if (problem) throw badChatRequest(field, problem);
  return id;
}

function readMessage(value: unknown, index: number): ClientMessage {
  const where = `messages[${index}]`;
  if (!isRecord(value)) throw badChatRequest(where, 'must be an object');
  if (typeof value.id !== 'string') throw badChatRequest(`${where}.id`, 'must be a string');
  if (typeof value.role !== 'string' || !ROLES.has(value.role))
    throw badChatRequest(`${where}.role`, 'must be "user", "assistant" or "system"');
  if (!Array.isArray(value.parts) || !value.parts.every(isRecord))
    throw badChatRequest(`${where}.parts`, 'must be an array of objects');
  return value as unknown as ClientMessage;
}

function approvalsOf(message: ClientMessage, index: number): ClientApproval[] {
  const approvals: ClientApproval[] = [];
  message.parts.forEach((part, i) => {
    if (part.state !== 'approval-responded') return;
    const approval = part.approval;
    const where = `messages[${index}].parts[${i}]`;
    if (typeof part.toolCallId !== 'string')
      throw badChatRequest(`${where}.toolCallId`, 'must be a string');
    if (!isRecord(approval) || typeof approval.approved !== 'boolean')
      throw badChatRequest(`${where}.approval`, 'must be { id, approved, reason? }');
    if (approval.reason !== undefined && typeof approval.reason !== 'string')
      throw badChatRequest(`${where}.approval.reason`, 'must be a string');
    approvals.push({
      toolCallId: part.toolCallId,
      approved: approval.approved,
      ...(typeof approval.reason === 'string' ? { reason: approval.reason } : {}),
    });
  });
  return approvals;
}

/**
 * Reads `useChat`'s POST body (`{ id, messages, trigger, messageId }`). Only the last message is
 * new; the others are what the client believes is stored, checked against the thread later.
 */
export function readChatRequest(body: unknown): ChatRequest {
  if (!isRecord(body)) throw badChatRequest('body', 'must be a JSON object');
  const chatId = checkChatId(body.id);
  if (!Array.isArray(body.messages) || body.messages.length === 0)
    throw badChatRequest('messages', 'must be a non-empty array');
  const messages = body.messages.map(readMessage);
  const last = messages.at(-1)!;
  const lastIndex = messages.length - 1;
  const history = messages.slice(0, -1);
  const trigger = body.trigger ?? 'submit-message';
  if (trigger === 'regenerate-message') {
    if (last.role !== 'user')
      throw badChatRequest(
        `messages[${lastIndex}]`,
        'must be the user message whose answer is regenerated',
      );
    return { kind: 'regenerate', chatId, history: messages };
  }
  if (trigger !== 'submit-message')
    throw badChatRequest('trigger', 'must be "submit-message" or "regenerate-message"');
  if (last.role === 'assistant') {
    const approvals = approvalsOf(last, lastIndex);
    if (approvals.length === 0)
      throw badChatRequest(
        `messages[${lastIndex}]`,
        'is an assistant message without approval responses: send a user message or approvals',
      );
    return { kind: 'approval', chatId, answerId: last.id, approvals, history };
  }
  if (last.role !== 'user')
    throw badChatRequest(`messages[${lastIndex}].role`, 'must be "user" or "assistant"');
  const content = fromUIMessageParts(last.parts, `messages[${lastIndex}].parts`);
  return { kind: 'message', chatId, message: { id: last.id, content }, history };
}
