import { WorkflowValidationError } from '../errors/workflow-validation-error.js';
import type { CompiledWorkflow } from './compiled-workflow.js';
import type { WorkflowDefinition } from './types.js';
import { checkBranches } from './validate-branches.js';
import { checkEdges } from './validate-edges.js';
import { checkReachability } from './validate-graph.js';
import { checkGuardrailNames } from './validate-guardrails.js';
import { checkNodes } from './validate-nodes.js';
import { checkTriggers } from './validate-triggers.js';
import { checkVariables } from './validate-variables.js';
import { withTimeoutEdges } from './validate-waits.js';
import { Checker, type GuardrailStagesOf, isObject, type ToolNames } from './workflow-checker.js';

export interface ValidateOptions {
  /** Where tool names are checked (a ToolRegistry fits). Without it, tool names are not checked. */
  readonly tools?: ToolNames;
  /** Where guardrail names are checked (a GuardrailRegistry fits). */
  readonly guardrails?: GuardrailStagesOf;
}

/**
 * Checks a workflow and returns its compiled form, or throws one `WorkflowValidationError` listing
 * every problem found, each naming its node, edge or field.
 */
export function validateWorkflow(
  definition: WorkflowDefinition,
  options: ValidateOptions = {},
): CompiledWorkflow {
  const checker = new Checker(options.guardrails);
  const def = definition as unknown;
  const workflowId = isObject(def) && typeof def.id === 'string' ? def.id : '(unnamed)';
  if (!isObject(def))
    throw new WorkflowValidationError(workflowId, [
      { code: 'INVALID_DEFINITION', message: 'a workflow must be an object' },
    ]);
  if (typeof def.id !== 'string' || def.id.length === 0)
    checker.add({
      code: 'INVALID_DEFINITION',
      path: 'id',
      message: 'id must be a non-empty string',
    });
  if (typeof def.version !== 'string' || def.version.length === 0)
    checker.add({
      code: 'INVALID_DEFINITION',
      path: 'version',
      message: 'version must be a non-empty string',
    });
  if (!Array.isArray(def.nodes) || !Array.isArray(def.edges)) {
    checker.add({
      code: 'INVALID_DEFINITION',
      path: Array.isArray(def.nodes) ? 'edges' : 'nodes',
      message: 'nodes and edges must be arrays',
    });
    throw new WorkflowValidationError(workflowId, checker.issues);
  }

  const { nodes, starts, ends } = checkNodes(def.nodes, checker, options.tools);
  const outgoing = checkEdges(def.edges, nodes, checker);
  const start = starts[0];
  const analysed = checkBranches(nodes, outgoing, start, checker);
  const graph = withTimeoutEdges(nodes, analysed, checker);
  if (start) checkReachability(start, nodes.keys(), ends, graph, checker);
  for (const node of nodes.values())
    if (node.type === 'SUBWORKFLOW' && node.config?.workflow === def.id)
      checker.add({
        code: 'SUBWORKFLOW_CYCLE',
        nodeId: node.id,
        message: `SUBWORKFLOW runs workflow "${def.id}", which is this workflow: it would start itself without end`,
      });

  // Tools, triggers, variables.
  if (def.initialTools !== undefined) {
    if (!Array.isArray(def.initialTools))
      checker.add({
        code: 'INVALID_DEFINITION',
        path: 'initialTools',
        message: 'initialTools must be an array of tool names',
      });
    else
      def.initialTools.forEach((name: unknown, i) => {
        checker.tool(name, options.tools, { path: `initialTools[${i}]` }, 'INVALID_DEFINITION');
      });
  }
  checkGuardrailNames(def.guardrails, checker, { path: 'guardrails' });
  checkTriggers(def.triggers, nodes, checker);
  checkVariables(def.variables, checker);

  if (checker.issues.length > 0) throw new WorkflowValidationError(workflowId, checker.issues);
  return {
    id: definition.id,
    version: definition.version,
    definition,
    startNodeId: start!,
    nodes,
    outgoing,
    expressions: checker.expressions,
    templates: checker.templates,
  };
}
