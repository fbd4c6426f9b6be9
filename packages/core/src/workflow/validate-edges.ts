import type { CompiledEdge } from './compiled-workflow.js';
import type { NodeDefinition } from './types.js';
import { type Checker, isObject, show } from './workflow-checker.js';

const ENDS = [
  { field: 'from', code: 'EDGE_FROM_MISSING_NODE', words: 'edge starts at missing node' },
  { field: 'to', code: 'EDGE_TO_MISSING_NODE', words: 'edge leads to missing node' },
] as const;

/**
 * The edges leaving each node, compiled, conditional ones first in declaration order and the
 * default last; every edge and every node's way out checked.
 */
export function checkEdges(
  list: readonly unknown[],
  nodes: ReadonlyMap<string, NodeDefinition>,
  checker: Checker,
): Map<string, CompiledEdge[]> {
  const outgoing = new Map<string, CompiledEdge[]>();
  const edgeIds = new Set<string>();
  list.forEach((edge: unknown, i) => {
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
    for (const end of ENDS) {
      const node = end.field === 'from' ? from : to;
      if (node !== undefined && nodes.has(node)) continue;
      checker.add({
        code: end.code,
        edgeId: id,
        path: `edges[${i}].${end.field}`,
        message: `${end.words} ${show(edge[end.field])}`,
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
    // PARALLEL and MAP go on to their JOIN (checked with the branches).
    if (node.type !== 'END' && node.type !== 'PARALLEL' && node.type !== 'MAP' && out.length === 0)
      checker.add({
        code: 'DEAD_END',
        nodeId: node.id,
        message: 'node has no outgoing edge and is not an END',
      });
  }
  return outgoing;
}
