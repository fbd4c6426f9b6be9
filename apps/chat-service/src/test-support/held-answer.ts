import type { LLMCallOptions, LLMClient, LLMRequest, LLMResponse } from '@skein/core';

/**
 * Wraps a model so that the answer to one user message, once all its tokens are streamed, is held
 * until the test lets it go: the page then shows the streamed text while the turn still runs,
 * and a reload meets a running answer, however slow the machine (no timing in the test).
 */
export class HeldAnswer implements LLMClient {
  readonly name: string;
  /** How many times the held message was sent to the model. */
  calls = 0;
  readonly #inner: LLMClient;
  readonly #message: string;
  #release!: () => void;
  readonly #released = new Promise<void>((resolve) => (this.#release = resolve));

  constructor(inner: LLMClient, message: string) {
    this.name = inner.name;
    this.#inner = inner;
    this.#message = message;
  }

  release(): void {
    this.#release();
  }

  async generate(request: LLMRequest, options?: LLMCallOptions): Promise<LLMResponse> {
    const response = await this.#inner.generate(request, options);
    const last = request.messages.at(-1);
    if (last?.role !== 'user' || last.content !== this.#message) return response;
    this.calls++;
    await this.#released;
    return response;
  }
}
