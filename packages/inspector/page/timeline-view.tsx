import type { ThreadDetail } from './api.js';

export function TimelineView({ entries }: { entries: ThreadDetail['timeline'] }) {
  return (
    <section class="timeline">
      <h2>Node timeline</h2>
      <ol>
        {entries.map((e) => (
          <li class={`node-${e.status}`} data-node={e.nodeId}>
            <span class="step">#{e.step}</span> <code>{e.nodeId}</code>{' '}
            <span class={`status status-${e.status}`}>{e.status}</span>
            {e.durationMs !== undefined && <span class="muted"> {e.durationMs} ms</span>}
            {e.attempt > 1 && <span class="retry"> retry {e.attempt - 1}</span>}
          </li>
        ))}
      </ol>
    </section>
  );
}
