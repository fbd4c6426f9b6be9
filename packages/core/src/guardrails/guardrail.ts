import type { LLMMessage, MessageContent } from '@skein/spec';

/**
 * Where a guardrail looks: what the user sent (before or beside the model call), the model's
 * final answer (before the thread takes it), a tool call's arguments (before it runs, and before
 * any approval is asked for) or its result (before the model sees it).
 */
export type GuardrailStage = 'input' | 'output' | 'tool-call' | 'tool-result';

export const GUARDRAIL_STAGES: readonly GuardrailStage[] = Object.freeze([
  'input',
  'output',
  'tool-call',
  'tool-result',
]);

/** A tool call as a guardrail sees it: its arguments parsed (the raw text when not JSON). */
export interface GuardedCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: unknown;
}

/** What a guardrail is asked about, by stage. */
export type GuardrailSubject =
  /** The user messages not checked before (a chat's new message, messages sent mid-run). */
  | { readonly stage: 'input'; readonly messages: readonly LLMMessage[] }
  /** The model's final answer (no tool calls), not yet in the conversation. */
  | { readonly stage: 'output'; readonly message: LLMMessage }
  | { readonly stage: 'tool-call'; readonly call: GuardedCall }
  /** The result the model would see (an error result too). */
  | { readonly stage: 'tool-result'; readonly call: GuardedCall; readonly result: LLMMessage };

/** Where the check runs. */
export interface GuardrailContext {
  readonly threadId: string;
  readonly nodeId: string;
  readonly variables: Readonly<Record<string, unknown>>;
  /** The conversation as the model sees it now. */
  readonly messages: readonly LLMMessage[];
  /** Aborts at the guardrail's time limit, when the run is cancelled, or when another trips. */
  readonly signal: AbortSignal;
}

/**
 * A guardrail's answer:
 * - `pass`: go on;
 * - `trip`: end the run, `GUARDRAIL_TRIPPED` with this reason (`endsChat`: a chat's next message
 *   is refused too, rather than starting a new turn);
 * - `refuse` (tool-call only): the call does not run; the model sees the reason as its result;
 * - `redact` (tool-result only): the model sees `content` instead of the result.
 */
export type GuardrailVerdict =
  | { readonly action: 'pass' }
  | { readonly action: 'trip'; readonly reason: string; readonly endsChat?: boolean }
  | { readonly action: 'refuse'; readonly reason: string }
  | { readonly action: 'redact'; readonly content: MessageContent };

/**
 * A check registered on the engine by name (`SkeinEngineOptions.guardrails`) and named on a
 * workflow, an LLM node or a tool. Definitions are JSON and hold no functions: they hold names.
 */
export interface Guardrail {
  /** The stages it can check; naming it for another is refused when the workflow is registered. */
  readonly stages: readonly GuardrailStage[];
  check(
    subject: GuardrailSubject,
    context: GuardrailContext,
  ): GuardrailVerdict | Promise<GuardrailVerdict>;
  /** Time limit of one check in ms (default 10,000): past it the run fails `GUARDRAIL_FAILED`. */
  readonly timeoutMs?: number;
  /**
   * Input only: check beside the model call instead of before it. A trip cancels the call, and
   * its answer is never added; the answer is used only once every check has passed.
   */
  readonly beside?: boolean;
}

/** Guardrails named for each stage, on a workflow (every LLM node) or on one LLM node. */
export interface GuardrailNames {
  readonly input?: readonly string[];
  readonly output?: readonly string[];
  readonly toolCall?: readonly string[];
  readonly toolResult?: readonly string[];
}

/** Guardrails named on a tool, for its calls wherever a model makes them. */
export interface ToolGuardrailNames {
  readonly call?: readonly string[];
  readonly result?: readonly string[];
}

/** The `GuardrailNames` field of each stage. */
export const NAMES_FIELD: Readonly<Record<GuardrailStage, keyof GuardrailNames>> = Object.freeze({
  input: 'input',
  output: 'output',
  'tool-call': 'toolCall',
  'tool-result': 'toolResult',
});
