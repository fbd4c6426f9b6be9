import type { LLMMessage } from '@skein/spec';
import { type ItemResult, ZERO_USAGE } from '../output/item-result.js';
import type { ScorerInput } from '../score/scorer.js';
import { toolCallsOf } from '../score/scorer-input.js';

export interface InputFields {
  readonly item?: unknown;
  readonly itemId?: string;
  readonly output?: unknown;
  readonly status?: ItemResult['status'];
  readonly messages?: readonly LLMMessage[];
  readonly signal?: AbortSignal;
}

/** A scorer's input for unit tests: an item, its result and its thread's messages. */
export function scorerInput(fields: InputFields = {}): ScorerInput {
  const itemId = fields.itemId ?? 'q1';
  const messages = fields.messages ?? [];
  return {
    item: fields.item,
    itemId,
    result: {
      itemId,
      threadId: `run/${itemId}`,
      status: fields.status ?? 'COMPLETED',
      ...(fields.output === undefined ? {} : { output: fields.output }),
      usage: ZERO_USAGE,
      durationMs: 1,
    },
    threadId: `run/${itemId}`,
    thread: undefined,
    messages,
    toolCalls: toolCallsOf(messages),
    signal: fields.signal ?? new AbortController().signal,
  };
}

/** An assistant message calling tools, `[name, arguments]` each. */
export function calling(...calls: [string, Record<string, unknown>?][]): LLMMessage {
  return {
    role: 'assistant',
    content: '',
    toolCalls: calls.map(([name, args], i) => ({
      id: `c${i}`,
      name,
      arguments: JSON.stringify(args ?? {}),
    })),
  };
}
