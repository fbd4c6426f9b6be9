import type OpenAI from 'openai';
import { ToolCallAccumulator } from '../accumulator/tool-call-accumulator.js';
import type { AccumulatorResult } from '../accumulator/types.js';
import { type CallContext, requestOptions } from './call-context.js';
import { completionToChunk } from './completion-to-chunk.js';
import { mapSdkError } from './map-sdk-error.js';

type CompleteBody = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

/** `stream: false`: one `chat.completion`, assembled by the same rules as a stream. */
export async function fetchCompletion(
  openai: OpenAI,
  body: Record<string, unknown>,
  context: CallContext,
): Promise<AccumulatorResult> {
  let completion: unknown;
  try {
    completion = await openai.chat.completions.create(
      body as unknown as CompleteBody,
      requestOptions(context.signal, context),
    );
  } catch (error) {
    throw mapSdkError(error, context.model, context.signal, context.timeoutMs);
  }
  const accumulator = new ToolCallAccumulator({
    onEvent: context.events.emit,
    maxTextLength: context.limits.maxTextLength,
  });
  accumulator.push(completionToChunk(completion));
  return accumulator.finish();
}
