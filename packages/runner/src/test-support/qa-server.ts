import { startOpenAICompatibleServer } from '@skein/testkit';

export type QaServer = Awaited<ReturnType<typeof startOpenAICompatibleServer>>;

export interface QaServerOptions {
  /** The first `times` requests are refused with 429 and this retry-after. */
  readonly refusals?: { readonly times: number; readonly retryAfterMs: number };
  /** Called as each answered request arrives (the testkit server does not record when). */
  readonly onRequest?: () => void;
}

/**
 * The qa model (see `qaModel`) over HTTP: a lookup call of the offered tool first, then an answer
 * from the tool's result.
 */
export function startQaServer(options: QaServerOptions = {}): Promise<QaServer> {
  return startOpenAICompatibleServer({
    ...(options.refusals
      ? { quirks: { failBeforeSuccess: { status: 429, ...options.refusals } } }
      : {}),
    script: (request) => {
      options.onRequest?.();
      const body = request.body as {
        messages: { role: string; content: string }[];
        tools: { function: { name: string } }[];
      };
      const last = body.messages.at(-1)!;
      const usage = { promptTokens: 10, completionTokens: 5 };
      return last.role === 'tool'
        ? { content: `answer: ${last.content}`, usage }
        : {
            toolCalls: [{ name: body.tools[0]!.function.name, arguments: { q: last.content } }],
            usage,
          };
    },
  });
}
