import type { ThreadDetail } from './api.js';

/** The workflow's nodes with their outgoing edges; nodes the thread went through stand out. */
export function GraphView({ graph }: { graph: ThreadDetail['graph'] }) {
  return (
    <section class="graph">
      <h2>Workflow</h2>
      <p class="muted">Path: {graph.path.join(' → ')}</p>
      <ul>
        {graph.nodes.map((n) => (
          <li class={n.visited ? 'visited' : 'unvisited'} data-node={n.id}>
            <code>{n.id}</code>
            {n.type && <span class="muted"> {n.type}</span>}
            {graph.edges
              .filter((e) => e.from === n.id)
              .map((e) => (
                <span class="edge">
                  {' '}
                  → {e.to}
                  {e.label ? ` [${e.label}]` : ''}
                </span>
              ))}
          </li>
        ))}
      </ul>
      {graph.mermaid && (
        <details>
          <summary>Mermaid</summary>
          <pre>{graph.mermaid}</pre>
        </details>
      )}
    </section>
  );
}
