import { contentText, type LLMMessage } from '@skein/spec';
import { inlineUIMessageParts } from '../parts/to-ui-parts.js';
import { jsonOrText, NOT_JSON, parseJson } from './json-value.js';
import type { UIChunk } from './ui-chunk.js';

/** A chat message as `useChat` holds it (the `ai` package's `UIMessage`, the parts Skein makes). */
export interface ChatUIMessage {
  readonly id: string;
  readonly role: 'user' | 'assistant';
  readonly parts: readonly Record<string, unknown>[];
}

/** Where a user message's UI id is kept in its stored metadata. */
export const UI_MESSAGE_ID_KEY = 'uiMessageId';

/** A stored user message's UI id: the client's own, else one made from its storage position. */
export function userMessageId(message: LLMMessage, position: number): string {
  const id = message.metadata?.[UI_MESSAGE_ID_KEY];
  return typeof id === 'string' && id !== '' ? id : `msg-${position}`;
}

/**
 * The id of the assistant message answering a user message. Made from the user message's id, so
 * the live stream, a replay after a reload and the stored history all name the answer alike.
 */
export function answerId(userId: string): string {
  return `${userId}-answer`;
}

/** One user message and the assistant and tool messages after it, in storage order. */
interface Turn {
  readonly userId: string;
  readonly user: LLMMessage | undefined;
  readonly answer: LLMMessage[];
}

function turnsOf(messages: readonly LLMMessage[]): Turn[] {
  const turns: Turn[] = [];
  messages.forEach((message, position) => {
    if (message.role === 'user')
      turns.push({ userId: userMessageId(message, position), user: message, answer: [] });
    else if (message.role === 'assistant' || message.role === 'tool') {
      // Messages before any user message (a workflow that starts talking) form their own answer.
      if (turns.length === 0) turns.push({ userId: 'start', user: undefined, answer: [] });
      turns.at(-1)!.answer.push(message);
    }
  });
  return turns;
}

/** A stored answer's tool parts, each in the state its stored result (if any) says. */
function toolPart(
  call: NonNullable<LLMMessage['toolCalls']>[number],
  result: LLMMessage | undefined,
  awaiting: ReadonlySet<string>,
): Record<string, unknown> {
  const base = { type: `tool-${call.name}`, toolCallId: call.id };
  const input = parseJson(call.arguments === '' ? '{}' : call.arguments);
  if (input === NOT_JSON || call.error !== undefined)
    return {
      ...base,
      state: 'output-error',
      rawInput: call.arguments,
      errorText:
        call.error ?? (result && contentText(result.content)) ?? 'the arguments are not JSON',
    };
  if (!result)
    return awaiting.has(call.id)
      ? { ...base, state: 'approval-requested', input, approval: { id: call.id } }
      : { ...base, state: 'input-available', input };
  if (result.metadata?.errorCode === 'TOOL_REJECTED')
    return { ...base, state: 'output-denied', input, approval: { id: call.id, approved: false } };
  if (result.metadata?.isError === true)
    return {
      ...base,
      state: 'output-error',
      input,
      errorText: contentText(result.content),
    };
  return {
    ...base,
    state: 'output-available',
    input,
    output: jsonOrText(contentText(result.content)),
  };
}

/** Names a stored message's content in errors by its storage position: `messages[3].content`. */
type ContentAt = (message: LLMMessage) => string;

function contentAt(messages: readonly LLMMessage[]): ContentAt {
  const positions = new Map(messages.map((message, position) => [message, position]));
  return (message) => `messages[${positions.get(message)}].content`;
}

/**
 * A tool message's media as UI file parts (its text is the tool part's output). An error's media
 * is left out, as the model never sees it either.
 */
function mediaOf(result: LLMMessage, at: ContentAt) {
  if (result.metadata?.isError === true) return [];
  return inlineUIMessageParts(result.content, at(result)).filter((p) => p.type === 'file');
}

function answerParts(answer: readonly LLMMessage[], awaiting: ReadonlySet<string>, at: ContentAt) {
  const results = new Map<string, LLMMessage>();
  for (const m of answer) if (m.role === 'tool' && m.toolCallId) results.set(m.toolCallId, m);
  const parts: Record<string, unknown>[] = [];
  for (const m of answer) {
    if (m.role !== 'assistant') continue;
    parts.push({ type: 'step-start' });
    for (const part of inlineUIMessageParts(m.content, at(m)))
      parts.push(part.type === 'text' ? { ...part, state: 'done' } : { ...part });
    for (const call of m.toolCalls ?? []) {
      const result = results.get(call.id);
      parts.push(toolPart(call, result, awaiting));
      // The UI tool part's output is JSON: a tool's image or file follows it as a file part.
      if (result) for (const file of mediaOf(result, at)) parts.push({ ...file });
    }
  }
  return parts;
}

// A text message reads back as the one text part it always did, empty or not.
function userParts(message: LLMMessage, at: ContentAt): Record<string, unknown>[] {
  const { content } = message;
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return inlineUIMessageParts(content, at(message)).map((part) => ({ ...part }));
}

/**
 * A thread's stored conversation as `useChat` messages: each user message, and one assistant
 * message per answer (every model call and tool result until the next user message). System
 * messages are left out. `awaiting` lists the calls a pause waits to have approved.
 */
export function toUIMessages(
  messages: readonly LLMMessage[],
  awaiting: ReadonlySet<string> = new Set(),
): ChatUIMessage[] {
  const out: ChatUIMessage[] = [];
  const at = contentAt(messages);
  for (const turn of turnsOf(messages)) {
    if (turn.user)
      out.push({
        id: turn.userId,
        role: 'user',
        parts: userParts(turn.user, at),
      });
    if (turn.answer.length > 0)
      out.push({
        id: answerId(turn.userId),
        role: 'assistant',
        parts: answerParts(turn.answer, awaiting, at),
      });
  }
  return out;
}

/**
 * The parts that rebuild the last answer's stored messages, for a reader who joins a run that
 * continues it (after an approval): each model call as a step, its text and its tool calls, the
 * results stored so far.
 */
export function storedAnswerChunks(messages: readonly LLMMessage[]): UIChunk[] {
  const last = turnsOf(messages).at(-1);
  if (!last) return [];
  const chunks: UIChunk[] = [];
  const at = contentAt(messages);
  const results = new Map<string, LLMMessage>();
  for (const m of last.answer) if (m.role === 'tool' && m.toolCallId) results.set(m.toolCallId, m);
  let texts = 0;
  for (const m of last.answer) {
    if (m.role !== 'assistant') continue;
    chunks.push({ type: 'start-step' });
    for (const part of inlineUIMessageParts(m.content, at(m))) {
      if (part.type === 'file') {
        chunks.push({ type: 'file', url: part.url, mediaType: part.mediaType });
        continue;
      }
      const id = `stored-text-${++texts}`;
      chunks.push(
        { type: 'text-start', id },
        { type: 'text-delta', id, delta: part.text },
        { type: 'text-end', id },
      );
    }
    for (const call of m.toolCalls ?? []) {
      const input = parseJson(call.arguments === '' ? '{}' : call.arguments);
      const toolCallId = call.id;
      if (input === NOT_JSON || call.error !== undefined) {
        chunks.push({
          type: 'tool-input-error',
          toolCallId,
          toolName: call.name,
          input: call.arguments,
          errorText: call.error ?? 'the arguments are not JSON',
        });
        continue;
      }
      chunks.push({ type: 'tool-input-available', toolCallId, toolName: call.name, input });
      const result = results.get(call.id);
      if (!result) continue;
      if (result.metadata?.errorCode === 'TOOL_REJECTED')
        chunks.push({ type: 'tool-output-denied', toolCallId });
      else if (result.metadata?.isError === true)
        chunks.push({
          type: 'tool-output-error',
          toolCallId,
          errorText: contentText(result.content),
        });
      else
        chunks.push({
          type: 'tool-output-available',
          toolCallId,
          output: jsonOrText(contentText(result.content)),
        });
      for (const file of mediaOf(result, at))
        chunks.push({ type: 'file', url: file.url, mediaType: file.mediaType });
    }
    chunks.push({ type: 'finish-step' });
  }
  return chunks;
}
