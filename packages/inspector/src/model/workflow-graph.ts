import type { TimelineEntry, WorkflowGraph } from './types.js';

/** The part of a workflow definition the graph needs (`WorkflowDefinition` of @skein/core). */
export interface GraphSource {
  readonly nodes: readonly { readonly id: string; readonly type: string }[];
  readonly edges: readonly {
    readonly from: string;
    readonly to: string;
    readonly label?: string;
    readonly condition?: string;
    readonly default?: boolean;
  }[];
}

/**
 * The workflow's nodes and edges with the ones the thread went through marked. Without the
 * definition (a store opened on its own), the path the checkpoints show is all there is.
 */
export function workflowGraph(
  timeline: readonly TimelineEntry[],
  currentNodeId: string | undefined,
  definition?: GraphSource,
  mermaid?: string,
): WorkflowGraph {
  const path: string[] = [];
  for (const entry of timeline) if (path.at(-1) !== entry.nodeId) path.push(entry.nodeId);
  if (currentNodeId !== undefined && path.at(-1) !== currentNodeId) path.push(currentNodeId);
  const visited = new Set(path);
  if (definition === undefined) {
    const nodes = [...visited].map((id) => ({ id, visited: true }));
    const edges = path.slice(1).map((to, i) => ({ from: path[i]!, to }));
    return { nodes, edges, path };
  }
  return {
    nodes: definition.nodes.map((n) => ({ id: n.id, type: n.type, visited: visited.has(n.id) })),
    edges: definition.edges.map((e) => {
      const label = e.label ?? e.condition ?? (e.default ? 'default' : undefined);
      return { from: e.from, to: e.to, ...(label === undefined ? {} : { label }) };
    }),
    path,
    ...(mermaid === undefined ? {} : { mermaid }),
  };
}
