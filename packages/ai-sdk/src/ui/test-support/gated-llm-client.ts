import type { LLMCallOptions, LLMClient, LLMRequest, LLMResponse } from '@skein/spec';

/**
 * Wraps a model so that one answer stops half-way until the test opens the gate: a reader can
 * then join that answer mid-stream however slow the machine is (no timing in the test).
 */
export class GatedLLMClient implements LLMClient {
  readonly name = 'gated';
  readonly #inner: LLMClient;
  readonly #gated: (request: LLMRequest) => boolean;
  readonly #answer: string;
  #open!: () => void;
  readonly #gate = new Promise<void>((resolve) => (this.#open = resolve));
  /** How many times the gated answer was asked for. */
  gatedCalls = 0;

  /** `gated` picks the call to hold: a user message's text, or a test of the request. */
  constructor(
    inner: LLMClient,
    gated: string | ((request: LLMRequest) => boolean),
    answer: string,
  ) {
    this.#inner = inner;
    this.#gated =
      typeof gated === 'function'
        ? gated
        : (request) => {
            const last = request.messages.at(-1);
            return last?.role === 'user' && last.content === gated;
          };
    this.#answer = answer;
  }

  open(): void {
    this.#open();
  }

  async generate(request: LLMRequest, options: LLMCallOptions = {}): Promise<LLMResponse> {
    if (!this.#gated(request)) return this.#inner.generate(request, options);
    this.gatedCalls++;
    const words = this.#answer.split(/(?<= )/);
    const half = Math.ceil(words.length / 2);
    for (const word of words.slice(0, half)) options.onEvent?.({ type: 'text-delta', delta: word });
    await this.#gate;
    for (const word of words.slice(half)) options.onEvent?.({ type: 'text-delta', delta: word });
    return { message: { role: 'assistant', content: this.#answer }, finishReason: 'stop' };
  }
}
