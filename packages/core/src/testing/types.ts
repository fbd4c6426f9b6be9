import type { FinishReason, LLMCallOptions, LLMRequest, TokenUsage } from '@skein/spec';

export interface ScriptedCall {
  /**
   * Default: `call_<digest of the conversation sent>_<index>` (`defaultCallId`): the same for a
   * replay of the same conversation, never repeated within a thread.
   */
  readonly id?: string;
  readonly name: string;
  /** An object is sent as its JSON; a string is sent as is (so broken JSON can be scripted). */
  readonly arguments?: string | Readonly<Record<string, unknown>>;
  /** Marks the call as unrunnable, as an adapter does for a call it could not assemble. */
  readonly error?: string;
}

/**
 * One scripted model answer. `content`, `toolCalls` (`id`, `name`, `arguments`), `usage` and
 * `finishReason` mean the same as in `@skein/testkit`'s `startOpenAICompatibleServer`, so a
 * script moves between the two unchanged. Unknown fields are refused with a ScriptError
 * (`SCRIPT_INVALID`).
 */
export interface ScriptedResponse {
  readonly content?: string;
  readonly toolCalls?: readonly ScriptedCall[];
  /**
   * Default: a rough count (characters / 4) of what was sent and returned. `totalTokens`
   * defaults to the sum.
   */
  readonly usage?: Omit<TokenUsage, 'totalTokens'> & { readonly totalTokens?: number };
  readonly finishReason?: FinishReason;
  /** Fail this call with this error instead of answering (text: a retryable SkeinError). */
  readonly fail?: Error | string;
  /** Wait this long before answering (aborts with the signal). */
  readonly delayMs?: number;
  /** Wait this long between streamed tokens (aborts with the signal). */
  readonly tokenDelayMs?: number;
  /** Never answer: wait until the signal aborts. */
  readonly hang?: boolean;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export type ScriptFunction = (
  request: LLMRequest,
  callIndex: number,
) => ScriptedResponse | Promise<ScriptedResponse>;

export type ScriptStep = ScriptedResponse | ScriptFunction;

export interface ScriptedLLMClientOptions {
  readonly name?: string;
  /** Emit the content as `text-delta` events, about four characters at a time (default true). */
  readonly stream?: boolean;
  /** After the last step: `throw` (default), `repeat-last`, or `cycle` from the start. */
  readonly whenExhausted?: 'throw' | 'repeat-last' | 'cycle';
}

/** One call as the scripted model saw it. */
export interface RecordedLLMCall {
  readonly request: LLMRequest;
  readonly options: Pick<LLMCallOptions, 'signal'>;
}
