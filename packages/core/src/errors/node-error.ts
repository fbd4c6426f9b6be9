import { SkeinError, type SkeinErrorOptions } from '@skein/spec';

/**
 * - `NODE_FAILED`: a node threw something that is not a SkeinError (the original is the `cause`).
 * - `NO_ROUTE`: no outgoing edge of the node holds and it has no default edge.
 * - `TRIGGER_FAILED`: a trigger's condition or action failed after the node completed; the node
 *   counts as not completed, and running the thread again runs it and its triggers again.
 * - `BRANCH_FAILED`: a branch of a PARALLEL or MAP node failed under `fail-fast` (the others were
 *   cancelled).
 * - `SUBWORKFLOW_FAILED`: the child thread of a SUBWORKFLOW node or a workflow tool failed.
 * - `SUBWORKFLOW_DEPTH_EXCEEDED`: a child thread would nest deeper than the engine's `maxDepth`.
 * - `MAP_ITEMS_INVALID`: the `items` expression of a MAP node did not give an array.
 * - `MERGE_FUNCTION_INVALID`: a JOIN or SUBWORKFLOW names a merge function the engine was not
 *   given, or it returned no messages.
 * - `WORKFLOW_TOOL_PAUSED`: a workflow used as a tool stopped to wait for input.
 * - `CHILD_THREADS_UNAVAILABLE`: a node or tool starts child threads, but its executor was built
 *   without a thread builder.
 * - `OUTPUT_INVALID`: an LLM node with `output: { schema }` got a final answer that is not JSON or
 *   does not match the schema (`nodeId`, `problems`). Retryable: the model may answer well when
 *   asked again, so the node's retry policy asks again.
 * - `WAIT_TIMED_OUT`: a USER_INTERACTION or WAIT_FOR_EVENT wait reached its `timeout` and names
 *   no `onTimeout` node (`nodeId`, `deadline`).
 * - `WAIT_TIME_INVALID`: a SLEEP's `duration` / `until` or a wait's `timeout` expression gave no
 *   usable time (`nodeId`, `expression`, `got`).
 */
export type NodeErrorCode =
  | 'NODE_FAILED'
  | 'NO_ROUTE'
  | 'TRIGGER_FAILED'
  | 'BRANCH_FAILED'
  | 'SUBWORKFLOW_FAILED'
  | 'SUBWORKFLOW_DEPTH_EXCEEDED'
  | 'MAP_ITEMS_INVALID'
  | 'MERGE_FUNCTION_INVALID'
  | 'WORKFLOW_TOOL_PAUSED'
  | 'CHILD_THREADS_UNAVAILABLE'
  | 'OUTPUT_INVALID'
  | 'WAIT_TIMED_OUT'
  | 'WAIT_TIME_INVALID';

/** What a NodeError can say; each code has some of these (see the factories). */
export interface NodeErrorFacts {
  readonly threadId?: string;
  readonly nodeId?: string;
  /** The checkpoint the thread can go on from (`NODE_FAILED`). */
  readonly lastCheckpointId?: string;
  readonly triggerId?: string;
  /** Whether the trigger's condition or its action failed (`TRIGGER_FAILED`). */
  readonly stage?: 'condition' | 'action';
  /** A branch's path from the failing thread, e.g. `compare[2]` or `review/legal`. */
  readonly branchPath?: string;
  readonly childThreadId?: string;
  /** The child thread's own error code (`BRANCH_FAILED`, `SUBWORKFLOW_FAILED`). */
  readonly causeCode?: string;
  readonly workflowId?: string;
  readonly maxDepth?: number;
  /** The MAP node's `items` expression (`MAP_ITEMS_INVALID`). */
  readonly expression?: string;
  /** `typeof` what the `items` expression gave (`null` for null). */
  readonly got?: string;
  /** The merge function's name (`MERGE_FUNCTION_INVALID`). */
  readonly functionName?: string;
  /** What is wrong with the model's answer (`OUTPUT_INVALID`). */
  readonly problems?: string;
  /** The ISO time the wait timed out at (`WAIT_TIMED_OUT`). */
  readonly deadline?: string;
}

/** How a child thread ended: its error's code and message. */
interface ChildFailure {
  readonly code: string;
  readonly message: string;
}

function reasonOf(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * A node could not do its work. The thread fails at the node, which counts as not completed; a
 * failure the loop reports also carries `threadId`, `nodeId` and `lastCheckpointId`, where the
 * thread can be picked up again. Retryable for `OUTPUT_INVALID`, and for `NODE_FAILED` with a
 * transient cause.
 */
export class NodeError<Code extends NodeErrorCode = NodeErrorCode> extends SkeinError<Code> {
  static override readonly errorName = 'NodeError';
  declare readonly threadId?: string;
  declare readonly nodeId?: string;
  declare readonly lastCheckpointId?: string;
  declare readonly triggerId?: string;
  declare readonly stage?: 'condition' | 'action';
  declare readonly branchPath?: string;
  declare readonly childThreadId?: string;
  declare readonly causeCode?: string;
  declare readonly workflowId?: string;
  declare readonly maxDepth?: number;
  declare readonly expression?: string;
  declare readonly got?: string;
  declare readonly functionName?: string;
  declare readonly problems?: string;
  declare readonly deadline?: string;

  /** The facts given become fields, and `details` unless `options.details` is given. */
  constructor(
    code: Code,
    message: string,
    facts: NodeErrorFacts = {},
    options: SkeinErrorOptions = {},
  ) {
    super(code, message, { ...options, facts });
  }

  /** A node failed with something that is not a SkeinError; retryable when the cause is. */
  static failed(
    threadId: string,
    nodeId: string,
    cause: unknown,
    lastCheckpointId?: string,
  ): NodeError<'NODE_FAILED'> {
    return new NodeError(
      'NODE_FAILED',
      `Node "${nodeId}" of thread ${threadId} failed: ${reasonOf(cause)}`,
      { threadId, nodeId, lastCheckpointId },
      // Running the thread again from its last checkpoint can succeed when the cause was transient.
      { cause, retryable: SkeinError.isRetryable(cause) },
    );
  }

  static noRoute(nodeId: string): NodeError<'NO_ROUTE'> {
    return new NodeError(
      'NO_ROUTE',
      `No outgoing edge of node "${nodeId}" matches and it has no default edge`,
      { nodeId },
    );
  }

  static triggerFailed(
    threadId: string,
    triggerId: string,
    nodeId: string,
    stage: 'condition' | 'action',
    cause: unknown,
  ): NodeError<'TRIGGER_FAILED'> {
    return new NodeError(
      'TRIGGER_FAILED',
      `Trigger "${triggerId}" failed in its ${stage} after node "${nodeId}" of thread ${threadId}: ${reasonOf(cause)}`,
      { threadId, triggerId, nodeId, stage },
      { cause },
    );
  }

  static branchFailed(
    branchPath: string,
    childThreadId: string,
    cause: ChildFailure,
  ): NodeError<'BRANCH_FAILED'> {
    return new NodeError(
      'BRANCH_FAILED',
      `Branch "${branchPath}" (thread ${childThreadId}) failed with ${cause.code}: ${cause.message}`,
      { branchPath, childThreadId, causeCode: cause.code },
    );
  }

  static subworkflowFailed(
    workflowId: string,
    childThreadId: string,
    cause: ChildFailure,
  ): NodeError<'SUBWORKFLOW_FAILED'> {
    return new NodeError(
      'SUBWORKFLOW_FAILED',
      `Workflow "${workflowId}" run as child thread ${childThreadId} failed with ${cause.code}: ${cause.message}`,
      { workflowId, childThreadId, causeCode: cause.code },
    );
  }

  /** `branchPath` is that of the thread that tried to start the child (empty at the top). */
  static subworkflowDepth(
    workflowId: string,
    maxDepth: number,
    branchPath: string,
  ): NodeError<'SUBWORKFLOW_DEPTH_EXCEEDED'> {
    return new NodeError(
      'SUBWORKFLOW_DEPTH_EXCEEDED',
      `Starting workflow "${workflowId}" at ${branchPath || 'the top-level thread'} would nest child threads more than ${maxDepth} deep (does a workflow reach itself?)`,
      { workflowId, maxDepth, branchPath },
    );
  }

  static mapItemsInvalid(
    nodeId: string,
    expression: string,
    value: unknown,
  ): NodeError<'MAP_ITEMS_INVALID'> {
    const got = value === null ? 'null' : typeof value;
    return new NodeError(
      'MAP_ITEMS_INVALID',
      `MAP node "${nodeId}": items expression \`${expression}\` must give an array, got ${got}`,
      { nodeId, expression, got },
    );
  }

  static mergeFunctionInvalid(
    nodeId: string,
    functionName: string,
    problem: string,
  ): NodeError<'MERGE_FUNCTION_INVALID'> {
    return new NodeError(
      'MERGE_FUNCTION_INVALID',
      `Node "${nodeId}": merge function "${functionName}" ${problem}`,
      { nodeId, functionName },
    );
  }

  static workflowToolPaused(
    workflowId: string,
    childThreadId: string,
  ): NodeError<'WORKFLOW_TOOL_PAUSED'> {
    return new NodeError(
      'WORKFLOW_TOOL_PAUSED',
      `Workflow "${workflowId}" used as a tool paused (thread ${childThreadId}); a workflow tool must run to its end without user input or approvals`,
      { workflowId, childThreadId },
    );
  }

  static outputInvalid(nodeId: string, problems: string): NodeError<'OUTPUT_INVALID'> {
    return new NodeError(
      'OUTPUT_INVALID',
      `LLM node "${nodeId}": the model's answer does not match output.schema: ${problems}`,
      { nodeId, problems },
      { retryable: true },
    );
  }

  /** A summary call answered with no text: the same code as any answer not acceptable. */
  static summaryEmpty(nodeId: string, toolCalls: number): NodeError<'OUTPUT_INVALID'> {
    return new NodeError(
      'OUTPUT_INVALID',
      `Node "${nodeId}": the summary call answered with no text${toolCalls > 0 ? ` (it asked for ${toolCalls} tool calls instead)` : ''}`,
      { nodeId, problems: 'no summary text' },
      { retryable: true },
    );
  }

  static childThreadsUnavailable(nodeId: string): NodeError<'CHILD_THREADS_UNAVAILABLE'> {
    return new NodeError(
      'CHILD_THREADS_UNAVAILABLE',
      `Node "${nodeId}" starts child threads, which needs a SkeinEngine (or a ThreadExecutor given \`builder\`)`,
      { nodeId },
    );
  }

  static waitTimedOut(nodeId: string, deadline: string): NodeError<'WAIT_TIMED_OUT'> {
    return new NodeError(
      'WAIT_TIMED_OUT',
      `Node "${nodeId}" waited until its deadline ${deadline} and has no onTimeout node to go to`,
      { nodeId, deadline },
    );
  }

  static waitTimeInvalid(
    nodeId: string,
    expression: string,
    value: unknown,
    wanted: string,
  ): NodeError<'WAIT_TIME_INVALID'> {
    const got =
      value === null ? 'null' : typeof value === 'string' ? JSON.stringify(value) : typeof value;
    return new NodeError(
      'WAIT_TIME_INVALID',
      `Node "${nodeId}": \`${expression}\` must give ${wanted}, got ${got}`,
      { nodeId, expression, got },
    );
  }
}
