import { useMemo } from 'preact/hooks';
import type { GraphLayout, Point } from '../src/model/graph-layout.js';
import { layoutGraph } from '../src/model/graph-layout.js';
import type { ThreadDetail } from './api.js';

type Graph = ThreadDetail['graph'];

const BOX = { boxWidth: 150, boxHeight: 40, columnGap: 28, layerGap: 46, margin: 12 };

/** Long ids and conditions are cut to fit; the full text is in the element's title. */
function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Where an edge's condition goes: in the gap it crosses first, or above its target when back. */
function labelAt(edge: GraphLayout['edges'][number]): Point {
  const [a, b] = edge.back
    ? [edge.points[3]!, edge.points[4]!]
    : [edge.points[0]!, edge.points[1]!];
  return { x: (a.x + b.x) / 2 + (edge.back ? 0 : 4), y: (a.y + b.y) / 2 + (edge.back ? -3 : 3) };
}

/** The start of the drawing: the START node, else the first node the thread ran. */
function startOf(graph: Graph): string | undefined {
  return graph.nodes.find((n) => n.type === 'START')?.id ?? graph.path[0] ?? graph.nodes[0]?.id;
}

/**
 * The workflow drawn as boxes in layers from its start, loops going back up on the right. Nodes
 * the thread went through and the edges between them stand out; the current node is outlined.
 * Ids, types and conditions are text nodes: nothing from the definition is parsed as markup.
 */
export function GraphView({ graph, currentNodeId }: { graph: Graph; currentNodeId?: string }) {
  // Live updates reload the graph with the same shape: lay it out again only when it changes.
  const shape = JSON.stringify([graph.nodes.map((n) => n.id), graph.edges, startOf(graph)]);
  const layout = useMemo(() => layoutGraph(graph, startOf(graph), BOX), [shape]);
  const onPath = new Set(graph.path.slice(1).map((to, i) => `${graph.path[i]}\n${to}`));
  const nodes = new Map(graph.nodes.map((n) => [n.id, n]));
  return (
    <section class="graph">
      <h2>Workflow</h2>
      <p class="muted">Path: {graph.path.join(' → ')}</p>
      {layout.nodes.length > 0 && (
        <div class="graph-scroll">
          <svg
            class="workflow-graph"
            width={layout.width}
            height={layout.height}
            viewBox={`0 0 ${layout.width} ${layout.height}`}
            role="img"
            aria-label="Workflow graph"
          >
            <defs>
              {['arrow', 'arrow-on-path'].map((id) => (
                <marker
                  id={id}
                  viewBox="0 0 10 10"
                  refX="9"
                  refY="5"
                  markerUnits="userSpaceOnUse"
                  markerWidth="8"
                  markerHeight="8"
                  orient="auto-start-reverse"
                >
                  <path d="M0,0 L10,5 L0,10 z" />
                </marker>
              ))}
            </defs>
            {layout.edges.map((e) => {
              const on = onPath.has(`${e.from}\n${e.to}`);
              const at = e.label === undefined ? undefined : labelAt(e);
              return (
                <g
                  class={`edge${on ? ' on-path' : ''}${e.back ? ' back' : ''}${graph.edges[e.index]?.branch ? ' branch' : ''}`}
                  data-from={e.from}
                  data-to={e.to}
                >
                  <polyline
                    points={e.points.map((p) => `${p.x},${p.y}`).join(' ')}
                    marker-end={on ? 'url(#arrow-on-path)' : 'url(#arrow)'}
                  />
                  {at && e.label !== undefined && (
                    <text x={at.x} y={at.y} text-anchor={e.back ? 'middle' : 'start'}>
                      <title>{e.label}</title>
                      {cut(e.label, 24)}
                    </text>
                  )}
                </g>
              );
            })}
            {layout.nodes.map((box) => {
              const node = nodes.get(box.id);
              const classes = [
                'node',
                node?.visited ? 'visited' : 'unvisited',
                box.id === currentNodeId ? 'current' : '',
              ];
              return (
                <g
                  class={classes.filter(Boolean).join(' ')}
                  data-node={box.id}
                  transform={`translate(${box.x},${box.y})`}
                >
                  <title>{node?.type ? `${box.id} (${node.type})` : box.id}</title>
                  <rect width={box.w} height={box.h} rx="5" />
                  <text class="node-id" x={box.w / 2} y={node?.type ? 17 : 24} text-anchor="middle">
                    {cut(box.id, 19)}
                  </text>
                  {node?.type && (
                    <text class="node-type" x={box.w / 2} y={31} text-anchor="middle">
                      {node.type}
                    </text>
                  )}
                </g>
              );
            })}
          </svg>
        </div>
      )}
      {graph.mermaid && (
        <details>
          <summary>Mermaid</summary>
          <pre>{graph.mermaid}</pre>
        </details>
      )}
    </section>
  );
}
