/** A workflow a tool asks to run as a child thread. */
export interface WorkflowCall {
  readonly workflowId: string;
  readonly version?: string;
  /** The child's variables (checked against its workflow's variables schema). */
  readonly variables?: Readonly<Record<string, unknown>>;
  /** The child's first user message. */
  readonly message?: string;
}

/** What the engine runs a tool's workflow call with: the call, and the tool call it belongs to. */
export type WorkflowCaller = (
  request: WorkflowCall & { readonly toolCallId: string; readonly signal: AbortSignal },
) => Promise<unknown>;
