import type { ToolSpec } from './tool-spec.js';

/** A warning a tool reports while it runs (the engine adds the thread id if it is missing). */
export interface ToolWarning {
  readonly threadId?: string;
  readonly nodeId?: string;
  readonly code: string;
  readonly message: string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** What a tool may do with the engine's emitter; the engine hands it its full emitter. */
export interface ToolEventSink {
  emit(event: 'warning', payload: ToolWarning): boolean;
}

/** What a running tool knows about where it runs. */
export interface ToolExecutionContext {
  readonly threadId: string;
  readonly nodeId: string;
  readonly toolCallId: string;
  /** Aborted when the thread is cancelled or the tool's timeout passes. */
  readonly signal: AbortSignal;
  readonly variables: Readonly<Record<string, unknown>>;
  /** The engine's emitter: tools may emit `warning` events. */
  readonly emitter: ToolEventSink;
}

/** What `isEnabled` and `needsApproval` are asked with. */
export interface ToolThreadContext {
  readonly threadId: string;
  readonly variables: Readonly<Record<string, unknown>>;
}

// Declared through a method so the check is bivariant in its arguments, like `execute`: a
// Tool<{ a: number }> can then be held as a plain Tool by registries and threads.
type ApprovalCheck<TArgs> = {
  check(args: TArgs, context: ToolThreadContext): boolean | Promise<boolean>;
}['check'];

/**
 * A tool: its spec plus an executor. `execute` may return a string (used as is), any other
 * JSON-serialisable value (stringified), or a `ToolOutput` made by `toolOutput()`; a thrown error
 * becomes an error tool message the model can read.
 */
export interface Tool<TArgs = Record<string, unknown>> extends ToolSpec {
  execute(args: TArgs, context: ToolExecutionContext): unknown;
  /**
   * Per-call time limit in ms (1 to 2^31-1, what Node's timers can wait; default the engine's
   * `toolTimeoutMs`). The call is aborted and answered with a `TOOL_TIMEOUT` error after it.
   */
  readonly timeoutMs?: number;
  /**
   * True when the tool enforces `timeoutMs` itself and chooses what the model reads when it passes
   * (an Agents SDK `FunctionTool` does). The engine's own timer then waits one second longer, as a
   * backstop for a tool that does not keep its word, so the tool's answer is the one that counts.
   */
  readonly ownsTimeout?: boolean;
  /** Pause the thread for approval before running (USER_INTERACTION semantics). */
  readonly needsApproval?: boolean | ApprovalCheck<TArgs>;
  /** Decided per thread each time tools are offered; a disabled tool is neither offered nor run. */
  readonly isEnabled?: (context: ToolThreadContext) => boolean | Promise<boolean>;
  /**
   * Default true: arguments are checked against `parameters` before `execute` runs. Set false
   * for tools that must see exactly what the model sent (benchmarks whose reference never
   * validates); they still receive parsed JSON.
   */
  readonly validateArguments?: boolean;
  /** Where the tool came from (`local`, `mcp:<server>`, `openai-agents`…), for conflict reports. */
  readonly source?: string;
}
