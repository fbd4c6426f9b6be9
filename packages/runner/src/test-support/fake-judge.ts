import { contentText, type LLMClient, type LLMRequest, type LLMResponse } from '@skein/spec';

export interface FakeJudge extends LLMClient {
  readonly requests: LLMRequest[];
  /** The signal of each call, in order. */
  readonly signals: (AbortSignal | undefined)[];
}

/** A model for graders in tests: answers each request with the text `answer` gives for it. */
export function fakeJudge(
  answer: (request: LLMRequest, prompt: string) => string | Promise<string>,
): FakeJudge {
  const requests: LLMRequest[] = [];
  const signals: (AbortSignal | undefined)[] = [];
  return {
    name: 'fake-judge',
    requests,
    signals,
    async generate(request, options): Promise<LLMResponse> {
      requests.push(request);
      signals.push(options?.signal);
      const prompt = request.messages.map((m) => contentText(m.content)).join('\n');
      const content = await answer(request, prompt);
      return { message: { role: 'assistant', content }, finishReason: 'stop' };
    },
  };
}

/** A model that never answers (until its call is aborted, which it ignores too). */
export function silentJudge(): FakeJudge {
  return fakeJudge(() => new Promise<string>(() => undefined));
}
