import type {
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import type { LLMClientConformanceTurn } from '@skein/core/conformance';
import { simulateReadableStream } from 'ai/test';

/** `text` cut into pieces of `size` characters, as a provider streams it. */
function pieces(text: string, size = 4): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

export function usageV3(promptTokens: number, completionTokens: number): LanguageModelV3Usage {
  return {
    inputTokens: {
      total: promptTokens,
      noCache: promptTokens,
      cacheRead: undefined,
      cacheWrite: undefined,
    },
    outputTokens: { total: completionTokens, text: completionTokens, reasoning: undefined },
  };
}

export function textParts(text: string): LanguageModelV3StreamPart[] {
  return [
    { type: 'text-start', id: 't0' },
    ...pieces(text).map(
      (delta): LanguageModelV3StreamPart => ({ type: 'text-delta', id: 't0', delta }),
    ),
    { type: 'text-end', id: 't0' },
  ];
}

/** A tool call streamed as a provider does: start, argument pieces, end, then the whole call. */
export function toolCallParts(
  id: string,
  toolName: string,
  input: string,
): LanguageModelV3StreamPart[] {
  return [
    { type: 'tool-input-start', id, toolName },
    ...pieces(input, 5).map(
      (delta): LanguageModelV3StreamPart => ({ type: 'tool-input-delta', id, delta }),
    ),
    { type: 'tool-input-end', id },
    { type: 'tool-call', toolCallId: id, toolName, input },
  ];
}

export function finishPart(
  unified: 'stop' | 'tool-calls',
  usage: LanguageModelV3Usage,
): LanguageModelV3StreamPart {
  return { type: 'finish', finishReason: { unified, raw: unified }, usage };
}

/** The stream a mock model answers with, delays only where the turn asks for them. */
export function streamOf(
  parts: LanguageModelV3StreamPart[],
  chunkDelayInMs: number | null = null,
): LanguageModelV3StreamResult {
  return {
    stream: simulateReadableStream({
      chunks: [{ type: 'stream-start', warnings: [] }, ...parts],
      chunkDelayInMs,
    }),
  };
}

/** The parts a conformance turn becomes; `encode` gives the name the provider would send. */
export function conformanceParts(
  turn: Exclude<LLMClientConformanceTurn, { type: 'fail' }>,
  encode: (name: string) => string,
): LanguageModelV3StreamResult {
  switch (turn.type) {
    case 'text':
      return streamOf([
        ...textParts(turn.text),
        finishPart('stop', usageV3(turn.usage.promptTokens, turn.usage.completionTokens)),
      ]);
    case 'tool-call':
      return streamOf([
        ...textParts(turn.thought),
        ...toolCallParts('call_conf_1', encode(turn.name), JSON.stringify(turn.arguments)),
        finishPart('tool-calls', usageV3(turn.usage.promptTokens, turn.usage.completionTokens)),
      ]);
    case 'slow-text':
      return streamOf([...textParts(turn.text), finishPart('stop', usageV3(1, 1))], 50);
  }
}
