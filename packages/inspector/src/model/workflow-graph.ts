import type { TimelineEntry, WorkflowGraph } from './types.js';

/** The part of a workflow definition the graph needs (`WorkflowDefinition` of @skein/core). */
export interface GraphSource {
  readonly nodes: readonly {
    readonly id: string;
    readonly type: string;
    /** Read for the branches of PARALLEL and MAP nodes. */
    readonly config?: unknown;
  }[];
  readonly edges: readonly {
    readonly from: string;
    readonly to: string;
    readonly label?: string;
    readonly condition?: string;
    readonly default?: boolean;
  }[];
}

type GraphEdge = WorkflowGraph['edges'][number];

/**
 * Where a PARALLEL or MAP node sends its branches: no edge of the definition says so (the node
 * names each branch's start in its config), yet the drawing needs one to place the branch.
 */
function branchEdges(node: GraphSource['nodes'][number]): GraphEdge[] {
  const config = (node.config ?? {}) as {
    readonly start?: unknown;
    readonly itemVariable?: unknown;
    readonly branches?: unknown;
  };
  if (node.type === 'MAP' && typeof config.start === 'string') {
    const item = typeof config.itemVariable === 'string' ? config.itemVariable : 'item';
    return [{ from: node.id, to: config.start, label: `each ${item}`, branch: true }];
  }
  if (node.type !== 'PARALLEL' || !Array.isArray(config.branches)) return [];
  return config.branches.flatMap((b: { readonly name?: unknown; readonly start?: unknown }) =>
    typeof b?.start === 'string'
      ? [
          {
            from: node.id,
            to: b.start,
            branch: true,
            ...(typeof b.name === 'string' ? { label: b.name } : {}),
          },
        ]
      : [],
  );
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
    edges: [
      ...definition.edges.map((e) => {
        const label = e.label ?? e.condition ?? (e.default ? 'default' : undefined);
        return { from: e.from, to: e.to, ...(label === undefined ? {} : { label }) };
      }),
      ...definition.nodes.flatMap(branchEdges),
    ],
    path,
    ...(mermaid === undefined ? {} : { mermaid }),
  };
}
