import type { LLMMessage, LLMResponse, LLMStreamEvent, ToolNameCodec } from '@skein/spec';
import { describeValue } from '@skein/spec';
import { fromModelContent } from '../parts/from-model-content.js';
import { providerFailure } from './map-error.js';
import { mapFinishReason, mapUsage } from './map-finish.js';
import {
  METADATA_AI_SDK_REASONING,
  METADATA_AI_SDK_TOOL_CALLS,
  METADATA_REASONING,
  type StoredReasoning,
} from './message-metadata.js';
import { ToolCallParts } from './tool-call-parts.js';

type Part = Readonly<Record<string, unknown>> & { readonly type?: unknown };

interface ReasoningState {
  text: string;
  providerMetadata: Record<string, unknown> | undefined;
}

function mergeMetadata(
  into: Record<string, unknown> | undefined,
  value: unknown,
): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return into;
  return { ...into, ...(value as Record<string, unknown>) };
}

/**
 * Folds the parts of one `doStream` call into Skein's answer, streaming `text-delta`,
 * `reasoning-delta`, `tool-call-delta` and `warning` events as they come. An `error` part throws
 * at once (`PROVIDER_STREAM_ERROR`); `response()` is only whole after a `finish` part.
 */
export class StreamAnswer {
  readonly #model: string;
  readonly #emit: (event: LLMStreamEvent) => void;
  readonly #calls: ToolCallParts;
  // Text and generated files in the order they came, as the model's content list has them.
  readonly #content: ({ type: 'text'; text: string } | { type: 'file' })[] = [];
  readonly #reasoning = new Map<string, ReasoningState>();
  #finish: Part | undefined;
  #modelId: string | undefined;

  constructor(
    model: string,
    emit: (event: LLMStreamEvent) => void,
    codec: ToolNameCodec | undefined,
    newId: () => string,
  ) {
    this.#model = model;
    this.#emit = emit;
    this.#calls = new ToolCallParts({
      emit,
      newId,
      // A name the codec never produced is one the model made up: kept, so the engine says so.
      decode: (name) => codec?.tryDecode(name) ?? name,
    });
  }

  get finished(): boolean {
    return this.#finish !== undefined;
  }

  #reasoningAt(id: unknown): ReasoningState {
    const key = typeof id === 'string' ? id : '';
    let state = this.#reasoning.get(key);
    if (state === undefined) {
      state = { text: '', providerMetadata: undefined };
      this.#reasoning.set(key, state);
    }
    return state;
  }

  push(part: Part): void {
    switch (part.type) {
      case 'text-delta':
        if (typeof part.delta === 'string' && part.delta !== '') {
          const last = this.#content.at(-1);
          if (last?.type === 'text') last.text += part.delta;
          else this.#content.push({ type: 'text', text: part.delta });
          this.#emit({ type: 'text-delta', delta: part.delta });
        }
        break;
      case 'reasoning-start':
      case 'reasoning-end': {
        const state = this.#reasoningAt(part.id);
        state.providerMetadata = mergeMetadata(state.providerMetadata, part.providerMetadata);
        break;
      }
      case 'reasoning-delta': {
        const state = this.#reasoningAt(part.id);
        state.providerMetadata = mergeMetadata(state.providerMetadata, part.providerMetadata);
        if (typeof part.delta === 'string' && part.delta !== '') {
          state.text += part.delta;
          this.#emit({ type: 'reasoning-delta', delta: part.delta });
        }
        break;
      }
      case 'tool-input-start':
        this.#calls.start(part);
        break;
      case 'tool-input-delta':
        this.#calls.delta(part);
        break;
      case 'tool-call':
        this.#calls.call(part);
        break;
      case 'stream-start':
        for (const warning of Array.isArray(part.warnings) ? part.warnings : [])
          this.#emit({
            type: 'warning',
            code: 'PROVIDER_WARNING',
            message: `${this.#model}: ${describeValue(warning)}`,
            details: { warning: JSON.parse(JSON.stringify(warning ?? null)) as unknown },
          });
        break;
      case 'response-metadata':
        if (typeof part.modelId === 'string') this.#modelId = part.modelId;
        break;
      case 'file':
        this.#content.push(part as { type: 'file' });
        break;
      case 'finish':
        this.#finish = part;
        break;
      case 'error':
        throw providerFailure('PROVIDER_STREAM_ERROR', part.error, this.#model);
      default:
        // tool-input-end, text-start/-end, raw, sources, provider tool results and
        // approval requests carry nothing Skein's answer keeps.
        break;
    }
  }

  response(): LLMResponse {
    const { calls, metadata: callMetadata } = this.#calls.finish();
    const reasoning = [...this.#reasoning.values()];
    const reasoningText = reasoning.map((r) => r.text).join('');
    const signed: StoredReasoning[] = reasoning.flatMap((r) =>
      r.providerMetadata === undefined || Object.keys(r.providerMetadata).length === 0
        ? []
        : [{ text: r.text, providerMetadata: r.providerMetadata }],
    );
    const metadata: Record<string, unknown> = {};
    if (reasoningText !== '') metadata[METADATA_REASONING] = reasoningText;
    if (signed.length > 0) metadata[METADATA_AI_SDK_REASONING] = signed;
    if (Object.keys(callMetadata).length > 0) metadata[METADATA_AI_SDK_TOOL_CALLS] = callMetadata;
    const message: LLMMessage = {
      role: 'assistant',
      content: fromModelContent(this.#content),
      ...(calls.length === 0 ? {} : { toolCalls: calls }),
      ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
    };
    const usage = mapUsage(this.#finish?.usage);
    return {
      message,
      finishReason: mapFinishReason(this.#finish?.finishReason, calls.length > 0),
      ...(usage === undefined ? {} : { usage }),
      ...(this.#modelId === undefined ? {} : { model: this.#modelId }),
    };
  }
}
