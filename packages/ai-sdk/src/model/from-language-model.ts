import { randomUUID } from 'node:crypto';
import type {
  LLMCallOptions,
  LLMClient,
  LLMRequest,
  LLMResponse,
  LLMStreamEvent,
  ToolNameCodecOptions,
} from '@skein/spec';
import { SkeinError, ToolNameCodec } from '@skein/spec';
import { type AiSdkLanguageModel, checkLanguageModel } from './language-model.js';
import { abortError, providerFailure, streamInterrupted } from './map-error.js';
import { StreamAnswer } from './stream-answer.js';
import { toCallOptions } from './to-call-options.js';

export interface FromLanguageModelOptions {
  /**
   * Encode tool names the provider cannot take, and decode them in its answers, with
   * `ToolNameCodec` from @skein/spec: `true` for OpenAI's rule (`[a-zA-Z0-9_-]{1,64}`, which
   * Anthropic, Gemini and most gateways also accept), codec options for another rule, or a codec
   * of your own (to share its mapping). Default false: names go out as they are.
   */
  readonly encodeToolNames?: boolean | ToolNameCodecOptions | ToolNameCodec;
  /** The client's `name` in events and errors (default `ai-sdk:<provider>:<modelId>`). */
  readonly name?: string;
}

/** An `LLMClient` over an AI SDK model, with the codec it encodes tool names with (if any). */
export interface LanguageModelClient extends LLMClient {
  readonly model: AiSdkLanguageModel;
  /** `'v2'` (ai 5 providers) or `'v3'` (ai 6 providers). */
  readonly specification: 'v2' | 'v3';
  /** The tool-name codec in use, or undefined when names go out unchanged. */
  readonly toolNames: ToolNameCodec | undefined;
}

function codecOf(option: FromLanguageModelOptions['encodeToolNames']): ToolNameCodec | undefined {
  if (option === undefined || option === false) return undefined;
  if (option === true) return new ToolNameCodec();
  return option instanceof ToolNameCodec ? option : new ToolNameCodec(option);
}

/**
 * Reads the stream to its end into `answer`. An abort cancels the reader, so a model that does not
 * watch `abortSignal` itself (a mock, a slow local server) still stops at once.
 */
async function readStream(
  stream: ReadableStream<unknown>,
  answer: StreamAnswer,
  name: string,
  signal: AbortSignal | undefined,
): Promise<void> {
  const reader = stream.getReader();
  const onAbort = () => {
    reader.cancel(signal?.reason).catch(() => {});
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch (error) {
        if (signal?.aborted) throw abortError(name, signal.reason);
        if (SkeinError.isInstance(error)) throw error;
        const told = (error as { isRetryable?: unknown } | null)?.isRetryable;
        if (told === false) throw providerFailure('PROVIDER_STREAM_ERROR', error, name);
        throw streamInterrupted(
          name,
          `broke: ${(error as Error)?.message ?? String(error)}`,
          error,
        );
      }
      if (signal?.aborted) throw abortError(name, signal.reason);
      if (next.done) break;
      if (typeof next.value === 'object' && next.value !== null)
        answer.push(next.value as Record<string, unknown>);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
    reader.releaseLock();
  }
}

/**
 * Any AI SDK language model (specification `v2` or `v3`: the provider packages of ai 5 and ai 6,
 * `@ai-sdk/openai`, `@ai-sdk/anthropic`, `@ai-sdk/google`, `@ai-sdk/openai-compatible`, …) as a
 * Skein `LLMClient`. Each call streams through `doStream`; see the README for how parts map.
 * Anything else is refused with `AiSdkModelError` (`UNSUPPORTED_MODEL`).
 */
export function fromLanguageModel(
  model: AiSdkLanguageModel,
  options: FromLanguageModelOptions = {},
): LanguageModelClient {
  const checked = checkLanguageModel(model);
  const name = options.name ?? `ai-sdk:${checked.model.provider}:${checked.model.modelId}`;
  const toolNames = codecOf(options.encodeToolNames);
  const newId = () => `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`;

  async function generate(
    request: LLMRequest,
    callOptions: LLMCallOptions = {},
  ): Promise<LLMResponse> {
    const { signal, onEvent } = callOptions;
    if (signal?.aborted) throw abortError(name, signal.reason);
    const emit = (event: LLMStreamEvent) => onEvent?.(event);
    const answer = new StreamAnswer(name, emit, toolNames, newId);
    // Mapping errors (a part with no way to the model) are the caller's, not the provider's.
    const call = await toCallOptions(request, toolNames, signal, checked.specification);
    let stream: ReadableStream<unknown>;
    try {
      ({ stream } = await checked.model.doStream(call));
    } catch (error) {
      if (signal?.aborted) throw abortError(name, signal.reason);
      throw providerFailure('PROVIDER_REQUEST_FAILED', error, name);
    }
    await readStream(stream, answer, name, signal);
    if (!answer.finished) throw streamInterrupted(name, 'ended without a finish part');
    return answer.response();
  }

  return {
    name,
    model: checked.model,
    specification: checked.specification,
    toolNames,
    generate,
  };
}
