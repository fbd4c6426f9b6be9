import { type CallIdMessage, defaultCallId } from '@skein/core/testing';
import { type NormalizedTurn, normalizeTurn } from './normalize-turn.js';
import type { OpenAIServerQuirks, ScriptedTurn } from './types.js';

export interface ResponseMeta {
  readonly id: string;
  readonly model: string;
  readonly created: number;
  readonly turn: number;
  /** The request's messages; default call ids are made from them, as ScriptedLLMClient does. */
  readonly messages?: readonly CallIdMessage[];
}

type Call = NormalizedTurn['toolCalls'][number];

function pieces(text: string, size: number): string[] {
  if (text.length === 0) return [''];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export function callId(call: Call, meta: ResponseMeta, n: number): string | null {
  if (call.id !== undefined) return call.id;
  return meta.messages === undefined ? `call_tk${meta.turn}_${n}` : defaultCallId(meta.messages, n);
}

export function finishReasonOf(turn: NormalizedTurn, quirks: OpenAIServerQuirks): string {
  if (turn.finishReason !== undefined) return turn.finishReason;
  if (turn.toolCalls.length === 0) return 'stop';
  return quirks.stopWithToolCalls ? 'stop' : 'tool_calls';
}

export function usageOf(turn: NormalizedTurn): Record<string, number> | undefined {
  const usage = turn.usage;
  if (usage === undefined) return undefined;
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    total_tokens: usage.totalTokens ?? usage.promptTokens + usage.completionTokens,
  };
}

/** The fragments of one call, each for its own chunk, shaped by the quirks. */
function callFragments(
  call: Call,
  n: number,
  meta: ResponseMeta,
  quirks: OpenAIServerQuirks,
): Record<string, unknown>[] {
  const id = callId(call, meta, n);
  const args = quirks.wholeArguments
    ? [call.arguments]
    : pieces(call.arguments, quirks.argumentsChunkSize ?? 4);
  const late = quirks.nullIdOnFirstChunk || quirks.idOnLaterChunk;
  // A late id needs a fragment after the first one to ride on.
  if (late && id !== null && args.length < 2) args.push('');
  const index = quirks.noIndex ? {} : { index: (quirks.indexBase ?? 0) + n };
  const last = args.length - 1;
  return args.map((piece, f) => {
    const header = f === 0 || quirks.repeatIdAndName;
    let idField: Record<string, unknown> = {};
    if (id === null) idField = f === 0 ? { id: null } : {};
    else if (quirks.nullIdOnFirstChunk)
      idField = f === 0 ? { id: null } : f === 1 || quirks.repeatIdAndName ? { id } : {};
    else if (quirks.idOnLaterChunk)
      idField = f === last || (f > 0 && quirks.repeatIdAndName) ? { id } : {};
    else if (header) idField = { id };
    return {
      ...index,
      ...idField,
      ...(header ? { type: 'function' } : {}),
      function: header ? { name: call.name, arguments: piece } : { arguments: piece },
    };
  });
}

/**
 * A scripted turn as `chat.completion.chunk` objects, the way OpenAI streams it (role chunk,
 * reasoning and text deltas, one fragment per chunk, a finish chunk, usage) unless a quirk
 * says otherwise.
 */
export function turnToChunks(
  scripted: ScriptedTurn,
  quirks: OpenAIServerQuirks,
  meta: ResponseMeta,
): unknown[] {
  const turn = normalizeTurn(scripted);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra = {}) => ({
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...extra,
  });
  const size = quirks.textChunkSize ?? 4;
  const chunks: unknown[] = [chunk({ role: 'assistant', content: '' })];
  if (turn.reasoning) {
    for (const piece of pieces(turn.reasoning, size))
      chunks.push(chunk({ reasoning_content: piece }));
  }
  if (turn.content)
    for (const piece of pieces(turn.content, size)) chunks.push(chunk({ content: piece }));
  turn.toolCalls.forEach((call, n) => {
    for (const fragment of callFragments(call, n, meta, quirks)) {
      chunks.push(chunk({ tool_calls: [fragment] }));
    }
  });
  const usage = usageOf(turn);
  const finish = finishReasonOf(turn, quirks);
  if (usage === undefined) chunks.push(chunk({}, finish));
  else if (quirks.usageOnlyFinalChunk) {
    chunks.push(chunk({}, finish), {
      id: meta.id,
      object: 'chat.completion.chunk',
      created: meta.created,
      model: meta.model,
      choices: [],
      usage,
    });
  } else chunks.push(chunk({}, finish, { usage }));
  return chunks;
}
