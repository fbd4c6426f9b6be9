import type {
  Tool as ContractTool,
  ToolExecutionContext as ContractToolExecutionContext,
} from '@skein/spec';
import type { SkeinEmitter } from '../events/emitter.js';
import type { ToolGuardrailNames } from '../guardrails/guardrail.js';
import type { ToolInputAnswer } from './tool-input.js';
import type { WorkflowCall } from './workflow-call.js';

export type { ToolOutput, ToolThreadContext } from '@skein/spec';
export { isToolOutput, toolOutput } from '@skein/spec';

/**
 * What a running tool knows about where it runs. The engine hands tools its whole emitter; the
 * contract in @skein/spec promises only `emit('warning', …)`, which is all a tool needs.
 */
export interface ToolExecutionContext extends ContractToolExecutionContext {
  readonly emitter: SkeinEmitter;
  /**
   * The same for every attempt of this call (thread, node, step, call id): a tool with side
   * effects can deduplicate with it when a node runs again after a crash. The engine always sets
   * it; optional so contexts built by hand (tests, other runtimes) stay valid.
   */
  readonly idempotencyKey?: string;
  /**
   * Runs a registered workflow as a child thread of the calling node and gives its END output;
   * present when the engine runs the tool (see `workflowTool`).
   */
  readonly callWorkflow?: (request: WorkflowCall) => Promise<unknown>;
  /**
   * Set when this call asked for a person's answer (`pauseForInput`) and the thread was resumed:
   * the answer and the state the tool stored with its request.
   */
  readonly answered?: ToolInputAnswer;
}

/**
 * A tool as the engine runs it: the @skein/spec `Tool` contract, executed with the engine's
 * context. Either can be registered: the context is a superset of the contract's.
 */
export interface Tool<TArgs = Record<string, unknown>> extends ContractTool<TArgs> {
  execute(args: TArgs, context: ToolExecutionContext): unknown;
  /**
   * Guardrails (registered on the engine by name) on this tool's calls a model makes: `call` on
   * the arguments before it runs (and before any approval), `result` before the model sees it.
   */
  readonly guardrails?: ToolGuardrailNames;
}
