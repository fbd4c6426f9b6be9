import type { ToolSpec } from '@skein/conversation';
import type { SkeinEmitter } from '../events/emitter.js';

/** What a running tool knows about where it runs. */
export interface ToolExecutionContext {
  readonly threadId: string;
  readonly nodeId: string;
  readonly toolCallId: string;
  /** Aborted when the thread is cancelled or the tool's timeout passes. */
  readonly signal: AbortSignal;
  readonly variables: Readonly<Record<string, unknown>>;
  /** The engine's emitter: tools may emit `warning` events. */
  readonly emitter: SkeinEmitter;
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

const OUTPUT = Symbol.for('skein.tool-output');

/**
 * A tool result with an explicit error flag and optional structured data. Its content reaches the
 * model verbatim, error or not: the tool chose the words.
 */
export interface ToolOutput {
  readonly [OUTPUT]: true;
  readonly content: string;
  readonly isError: boolean;
  /** Structured data kept beside the text (stored in the tool message's `metadata.data`). */
  readonly data?: unknown;
}

export function toolOutput(output: {
  content: string;
  isError?: boolean;
  data?: unknown;
}): ToolOutput {
  return {
    [OUTPUT]: true,
    content: output.content,
    isError: output.isError ?? false,
    ...(output.data === undefined ? {} : { data: output.data }),
  };
}

export function isToolOutput(value: unknown): value is ToolOutput {
  return typeof value === 'object' && value !== null && OUTPUT in value;
}
