import { normalizeTurn } from './normalize-turn.js';
import { callId, finishReasonOf, type ResponseMeta, usageOf } from './turn-to-chunks.js';
import type { OpenAIServerQuirks, ScriptedTurn } from './types.js';

/** A scripted turn as a non-streamed `chat.completion` body. */
export function turnToCompletion(
  scripted: ScriptedTurn,
  quirks: OpenAIServerQuirks,
  meta: ResponseMeta,
): Record<string, unknown> {
  const turn = normalizeTurn(scripted);
  const calls = turn.toolCalls.map((call, n) => ({
    id: callId(call, meta, n),
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  const usage = usageOf(turn);
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: turn.content ?? null,
          ...(turn.reasoning ? { reasoning_content: turn.reasoning } : {}),
          ...(calls.length === 0 ? {} : { tool_calls: calls }),
          refusal: null,
        },
        logprobs: null,
        finish_reason: finishReasonOf(turn, quirks),
      },
    ],
    ...(usage === undefined ? {} : { usage }),
  };
}
