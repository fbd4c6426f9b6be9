import { WorkflowValidationError } from '../errors/workflow-validation-error.js';
import type { CompiledEdge, CompiledWorkflow } from './compiled-workflow.js';
import { reachableFrom, stronglyConnected } from './graph.js';
import { NODE_TYPES, type NodeDefinition, type WorkflowDefinition } from './types.js';
import { checkNodeConfig } from './validate-node-config.js';
import { checkTriggers } from './validate-triggers.js';
import { checkVariables } from './validate-variables.js';
import { Checker, isObject, show, type ToolNames } from './workflow-checker.js';

export interface ValidateOptions {
  /** Where tool names are checked (a ToolRegistry fits). Without it, tool names are not checked. */
  readonly tools?: ToolNames;
}

/**
 * Checks a workflow and returns its compiled form, or throws one `WorkflowValidationError` listing
 * every problem found, each naming its node, edge or field.
 */
export function validateWorkflow(
  definition: WorkflowDefinition,
  options: ValidateOptions = {},
): CompiledWorkflow {
  const checker = new Checker();
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

  // Nodes.
  const nodes = new Map<string, NodeDefinition>();
  const starts: string[] = [];
  const ends: string[] = [];
  def.nodes.forEach((node: unknown, i) => {
    if (!isObject(node) || typeof node.id !== 'string' || node.id.length === 0) {
      checker.add({
        code: 'INVALID_DEFINITION',
        path: `nodes[${i}].id`,
        message: 'every node needs a non-empty string id',
      });
      return;
    }
    if (nodes.has(node.id)) {
      checker.add({
        code: 'DUPLICATE_NODE',
        nodeId: node.id,
        path: `nodes[${i}]`,
        message: `node id "${node.id}" is used more than once`,
      });
      return;
    }
    const type = node.type;
    if (typeof type !== 'string' || !(NODE_TYPES as readonly string[]).includes(type)) {
      checker.add({
        code: 'UNKNOWN_NODE_TYPE',
        nodeId: node.id,
        path: `nodes[${i}].type`,
        message: `unknown node type ${show(type)}`,
      });
      return;
    }
    nodes.set(node.id, node as unknown as NodeDefinition);
    if (type === 'START') starts.push(node.id);
    if (type === 'END') ends.push(node.id);
    checkNodeConfig({ id: node.id, type, config: node.config }, i, checker, options.tools);
  });
  if (starts.length === 0)
    checker.add({ code: 'NO_START', message: 'the workflow has no START node' });
  if (starts.length > 1)
    for (const id of starts)
      checker.add({
        code: 'MULTIPLE_STARTS',
        nodeId: id,
        message: `one START allowed, found ${starts.length}: ${starts.join(', ')}`,
      });
  if (ends.length === 0) checker.add({ code: 'NO_END', message: 'the workflow has no END node' });

  // Edges.
  const outgoing = new Map<string, CompiledEdge[]>();
  const edgeIds = new Set<string>();
  def.edges.forEach((edge: unknown, i) => {
    if (!isObject(edge)) {
      checker.add({
        code: 'INVALID_DEFINITION',
        path: `edges[${i}]`,
        message: 'an edge must be an object',
      });
      return;
    }
    const from = typeof edge.from === 'string' ? edge.from : undefined;
    const to = typeof edge.to === 'string' ? edge.to : undefined;
    const id =
      typeof edge.id === 'string' && edge.id
        ? edge.id
        : `${from ?? show(edge.from)}->${to ?? show(edge.to)}#${i}`;
    if (edgeIds.has(id))
      checker.add({
        code: 'DUPLICATE_EDGE',
        edgeId: id,
        path: `edges[${i}].id`,
        message: `edge id "${id}" is used more than once`,
      });
    edgeIds.add(id);
    let ok = true;
    if (from === undefined || !nodes.has(from)) {
      checker.add({
        code: 'EDGE_FROM_MISSING_NODE',
        edgeId: id,
        path: `edges[${i}].from`,
        message: `edge starts at missing node ${show(edge.from)}`,
      });
      ok = false;
    }
    if (to === undefined || !nodes.has(to)) {
      checker.add({
        code: 'EDGE_TO_MISSING_NODE',
        edgeId: id,
        path: `edges[${i}].to`,
        message: `edge leads to missing node ${show(edge.to)}`,
      });
      ok = false;
    }
    if (from !== undefined && nodes.get(from)?.type === 'END')
      checker.add({
        code: 'END_HAS_OUTGOING',
        edgeId: id,
        nodeId: from,
        message: 'END nodes cannot have outgoing edges',
      });
    if (edge.default !== undefined && typeof edge.default !== 'boolean')
      checker.add({
        code: 'INVALID_DEFINITION',
        edgeId: id,
        path: `edges[${i}].default`,
        message: 'default must be a boolean',
      });
    const condition =
      edge.condition === undefined
        ? undefined
        : checker.expression(edge.condition, { edgeId: id, path: `edges[${i}].condition` });
    if (!ok || from === undefined || to === undefined) return;
    const compiled: CompiledEdge = {
      id,
      from,
      to,
      ...(condition ? { condition } : {}),
      isDefault: edge.default === true || edge.condition === undefined,
      definition: edge as unknown as CompiledEdge['definition'],
    };
    const list = outgoing.get(from) ?? [];
    list.push(compiled);
    outgoing.set(from, list);
  });
  // Conditional edges are tried in declaration order, the default last.
  for (const [id, list] of outgoing) {
    const defaults = list.filter((e) => e.isDefault);
    if (defaults.length > 1)
      checker.add({
        code: 'MULTIPLE_DEFAULTS',
        nodeId: id,
        message: `node has ${defaults.length} default edges (${defaults.map((e) => e.id).join(', ')}); only the first could ever be taken`,
      });
    outgoing.set(id, [...list.filter((e) => !e.isDefault), ...defaults]);
  }
  for (const node of nodes.values()) {
    const out = outgoing.get(node.id) ?? [];
    if (node.type === 'ROUTE' && !out.some((e) => e.isDefault))
      checker.add({
        code: 'ROUTE_WITHOUT_DEFAULT',
        nodeId: node.id,
        message:
          'ROUTE node needs a default branch (an edge without condition or with default: true)',
      });
    if (node.type !== 'END' && out.length === 0)
      checker.add({
        code: 'DEAD_END',
        nodeId: node.id,
        message: 'node has no outgoing edge and is not an END',
      });
  }

  // Reachability and loops.
  const next = (id: string) => (outgoing.get(id) ?? []).map((e) => e.to);
  const start = starts[0];
  if (start) {
    const reachable = reachableFrom(start, next);
    for (const id of nodes.keys())
      if (!reachable.has(id))
        checker.add({
          code: 'UNREACHABLE_NODE',
          nodeId: id,
          message: 'node cannot be reached from START',
        });
    if (ends.length > 0 && !ends.some((id) => reachable.has(id)))
      checker.add({ code: 'NO_REACHABLE_END', message: 'no END node can be reached from START' });
    for (const component of stronglyConnected([...reachable], next)) {
      const members = new Set(component);
      const first = component[0]!;
      const isCycle = component.length > 1 || next(first).includes(first);
      if (!isCycle) continue;
      const exits = component.some((id) => next(id).some((to) => !members.has(to)));
      if (!exits)
        checker.add({
          code: 'CYCLE_WITHOUT_EXIT',
          nodeId: [...component].sort()[0],
          message: `nodes ${[...component].sort().join(', ')} form a cycle with no edge leaving it`,
        });
    }
  }

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
