import { branchHandlers } from '../branches/branch-handlers.js';
import type { ChildRunner } from '../branches/child-runner.js';
import { contextProcessorHandler } from '../nodes/context-processor-node.js';
import { llmNodeHandler } from '../nodes/llm-node.js';
import type { NodeHandler, NodeOutcome, NodeRunContext } from '../nodes/node-handler.js';
import {
  endHandler,
  routeHandler,
  startHandler,
  toolNodeHandler,
  userInteractionHandler,
  variableHandler,
} from '../nodes/simple-nodes.js';
import { sleepHandler, waitForEventHandler } from '../nodes/wait-nodes.js';
import type { NodeDefinition, NodeType } from '../workflow/types.js';

/** The node definition of each node type. */
export type NodeOfType = { readonly [K in NodeType]: Extract<NodeDefinition, { type: K }> };

/** A handler per node type, each typed by the node it gets. */
export type NodeHandlers = { readonly [K in NodeType]: NodeHandler<NodeOfType[K]> };

/** The built-in handlers, the branch nodes' over `children`. */
export const defaultHandlers = (children: ChildRunner | undefined): NodeHandlers => ({
  START: startHandler,
  END: endHandler,
  LLM: llmNodeHandler,
  TOOL: toolNodeHandler,
  ROUTE: routeHandler,
  CONTEXT_PROCESSOR: contextProcessorHandler,
  VARIABLE: variableHandler,
  USER_INTERACTION: userInteractionHandler,
  SLEEP: sleepHandler,
  WAIT_FOR_EVENT: waitForEventHandler,
  ...branchHandlers(children),
});

/** Runs the handler of `type` (indexing by the same `K` keeps handler and node matched). */
export function callHandler<K extends NodeType>(
  handlers: NodeHandlers,
  type: K,
  context: NodeRunContext<NodeOfType[K]>,
): NodeOutcome | Promise<NodeOutcome> {
  const handler: NodeHandler<NodeOfType[K]> = handlers[type];
  return handler(context);
}
