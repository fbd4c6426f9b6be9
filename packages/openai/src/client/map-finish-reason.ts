import type { FinishReason } from '@skein/spec';

const STOP = new Set(['stop', 'end_turn', 'eos', 'eos_token', 'stop_sequence']);
const LENGTH = new Set(['length', 'max_tokens', 'model_length']);

/**
 * The finish reason is advisory: calls that were assembled mean `tool_calls` whatever the
 * provider said (`stop` with calls is common); `tool_calls` without any assembled call is
 * `other`. A stream that completed without any finish reason counts as `stop`.
 */
export function mapFinishReason(raw: string | undefined, hasToolCalls: boolean): FinishReason {
  if (hasToolCalls) return 'tool_calls';
  if (raw === undefined || STOP.has(raw)) return 'stop';
  if (LENGTH.has(raw)) return 'length';
  if (raw === 'content_filter') return 'content_filter';
  if (raw === 'error') return 'error';
  return 'other';
}
