import { contentText, type LLMMessage } from '@skein/spec';
import { jsonOrText } from './json-value.js';
import type { SkeinGuardrailData, UIChunk } from './ui-chunk.js';

const STAGES: ReadonlySet<string> = new Set(['input', 'output', 'tool-call', 'tool-result']);

export function isGuardrailStage(stage: string): stage is SkeinGuardrailData['stage'] {
  return STAGES.has(stage);
}

/** A guardrail's verdict as a `data-skein-guardrail` part's data (only the fields it has). */
export function guardrailData(verdict: SkeinGuardrailData): SkeinGuardrailData {
  return {
    guardrail: verdict.guardrail,
    stage: verdict.stage,
    action: verdict.action,
    ...(verdict.reason === undefined ? {} : { reason: verdict.reason }),
    ...(verdict.toolCallId === undefined ? {} : { toolCallId: verdict.toolCallId }),
    ...(verdict.toolName === undefined ? {} : { toolName: verdict.toolName }),
    ...(verdict.endsChat ? { endsChat: true } : {}),
  };
}

/**
 * A tool's stored result as its output part, as the stored chat reads it back: an error's text,
 * or the JSON value (or text) of its content. A message that came without its content (cut to
 * fit a worker's NOTIFY) has an empty output.
 */
export function toolOutputOf(toolCallId: string, message: LLMMessage): UIChunk {
  const text = message.content === undefined ? '' : contentText(message.content);
  return message.metadata?.isError === true
    ? { type: 'tool-output-error', toolCallId, errorText: text }
    : { type: 'tool-output-available', toolCallId, output: jsonOrText(text) };
}
