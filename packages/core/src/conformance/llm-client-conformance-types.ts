import type { LLMClient } from '@skein/spec';

/** Token counts a scripted turn reports; the client under test must hand them back unchanged. */
export interface ConformanceUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** One answer the backend behind the client under test gives, in the suite's own terms. */
export type LLMClientConformanceTurn =
  /** A final answer of plain text, streamed in several pieces. */
  | { readonly type: 'text'; readonly text: string; readonly usage: ConformanceUsage }
  /** One tool call (`name` is the original, however awkward), after a short thought. */
  | {
      readonly type: 'tool-call';
      readonly thought: string;
      readonly name: string;
      readonly arguments: Readonly<Record<string, unknown>>;
      readonly usage: ConformanceUsage;
    }
  /**
   * Text that starts streaming at once and then takes far longer than any test (tens of seconds),
   * so only the caller's signal can end it.
   */
  | { readonly type: 'slow-text'; readonly text: string }
  /**
   * The backend fails: a passing outage (`retryable`, e.g. HTTP 503) or a request it will never
   * accept (e.g. HTTP 400). Always the first turn of its script.
   */
  | { readonly type: 'fail'; readonly retryable: boolean };

/**
 * What a client declares it does, where a protocol legitimately cannot do otherwise. The suite
 * checks the declared behaviour either way, so a flag never skips a test.
 */
export interface LLMClientCapabilities {
  /** Tool-call arguments stream as `tool-call-delta` events (a ReAct model writes text, not calls). */
  readonly toolCallDeltas: boolean;
  /**
   * `text-delta` events spell out exactly the message content; otherwise they are the raw
   * completion the content was parsed from (ReAct's Thought/Action lines), which holds the text.
   */
  readonly textDeltasAreContent: boolean;
  /** The response carries token usage (a bare text-completion function reports none). */
  readonly usage: boolean;
  /**
   * An abort rejects with a `SkeinError` (`retryable: false`); otherwise with the signal's own
   * `reason`, as `fetch` does.
   */
  readonly typedAbortError: boolean;
}

/** A client set up to answer one script, and how to tear it down. */
export interface LLMClientConformanceSubject {
  readonly client: LLMClient;
  /** The system message to send, where the protocol needs its own (ToolLLaMA's); default a short one. */
  readonly systemPrompt?: string;
  cleanup?(): Promise<void>;
}

export type LLMClientConformanceFactory = (
  script: readonly LLMClientConformanceTurn[],
) => Promise<LLMClientConformanceSubject>;
