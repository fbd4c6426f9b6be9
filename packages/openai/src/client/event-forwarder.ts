import type { LLMStreamEvent, ToolNameCodec } from '@skein/spec';

/**
 * Tool-call deltas carry the original name; a warning about a call keeps the name the model used
 * (`details.name`) and gains the original (`details.originalName`) where they differ.
 */
function withOriginalNames(event: LLMStreamEvent, codec: ToolNameCodec): LLMStreamEvent {
  if (event.type === 'tool-call-delta' && event.name !== undefined) {
    return { ...event, name: codec.tryDecode(event.name) ?? event.name };
  }
  if (event.type === 'warning' && typeof event.details?.name === 'string') {
    const original = codec.tryDecode(event.details.name);
    if (original !== undefined && original !== event.details.name) {
      return { ...event, details: { ...event.details, originalName: original } };
    }
  }
  return event;
}

/**
 * Hands stream events to the caller's `onEvent` with tool names decoded to the originals, and
 * remembers an error the caller's callback threw, so it is re-thrown as it is instead of being
 * mistaken for a broken stream.
 */
export class EventForwarder {
  readonly emit: ((event: LLMStreamEvent) => void) | undefined;
  #callbackError: { readonly error: unknown } | undefined;

  constructor(onEvent: ((event: LLMStreamEvent) => void) | undefined, codec: ToolNameCodec) {
    if (onEvent === undefined) return;
    this.emit = (event) => {
      const out = withOriginalNames(event, codec);
      try {
        onEvent(out);
      } catch (error) {
        this.#callbackError = { error };
        throw error;
      }
    };
  }

  /** True when `error` is what the caller's own callback threw. */
  threw(error: unknown): boolean {
    return this.#callbackError !== undefined && this.#callbackError.error === error;
  }
}
