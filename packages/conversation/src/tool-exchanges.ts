import type { LLMMessage } from '@skein/spec';

/** A run of visible positions `[start, end)` that must be kept or dropped together. */
export interface ExchangeUnit {
  readonly start: number;
  readonly end: number;
}

/**
 * Splits a visible list into units: an assistant message with tool calls together with the tool
 * messages right after it that answer those calls, or any other single message. Providers reject
 * a tool message whose call is missing and an assistant call without its answer, so operations
 * that drop messages drop whole units.
 */
export function exchangeUnits(messages: readonly LLMMessage[]): ExchangeUnit[] {
  const units: ExchangeUnit[] = [];
  let i = 0;
  while (i < messages.length) {
    const message = messages[i]!;
    const start = i;
    i++;
    if (message.role === 'assistant' && message.toolCalls && message.toolCalls.length > 0) {
      const ids = new Set(message.toolCalls.map((call) => call.id));
      while (i < messages.length) {
        const next = messages[i]!;
        if (next.role !== 'tool' || next.toolCallId === undefined || !ids.has(next.toolCallId))
          break;
        i++;
      }
    }
    units.push({ start, end: i });
  }
  return units;
}
