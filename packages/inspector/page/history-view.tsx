import { useState } from 'preact/hooks';
import type { HistoryItem } from './api.js';
import { api } from './api.js';
import { formatTime, threadHref } from './format.js';

/**
 * The thread's stored checkpoints, oldest first, each with a "Fork from here" button when the
 * inspector allows forking; a fork made here is linked from its entry.
 */
export function HistoryView(props: {
  threadId: string;
  entries: readonly HistoryItem[];
  canFork: boolean;
}) {
  const [forks, setForks] = useState<Readonly<Record<string, string>>>({});
  const [busy, setBusy] = useState<string>();
  const [error, setError] = useState<string>();
  const fork = (at: string) => {
    setError(undefined);
    setBusy(at);
    api.fork(props.threadId, at).then(
      (forkId) => {
        setBusy(undefined);
        setForks((all) => ({ ...all, [at]: forkId }));
      },
      (e: Error) => {
        setBusy(undefined);
        setError(e.message);
      },
    );
  };
  return (
    <section class="history" data-testid="history">
      <h2>History</h2>
      <ol>
        {props.entries.map((e) => (
          <li data-checkpoint={e.checkpointId}>
            <span class="step">#{e.step}</span> <code>{e.nodeId ?? '—'}</code>{' '}
            <span class={`status status-${e.status.toLowerCase()}`}>{e.status}</span>{' '}
            <span class="muted">{formatTime(e.createdAt)}</span>
            {e.summary !== undefined && (
              <>
                {' '}
                <span class="summary">{e.summary}</span>
              </>
            )}
            {props.canFork && (
              <>
                {' '}
                <button
                  type="button"
                  disabled={busy !== undefined}
                  onClick={() => fork(e.checkpointId)}
                >
                  Fork from here
                </button>
              </>
            )}
            {forks[e.checkpointId] !== undefined && (
              <span class="fork-link">
                {' '}
                → <a href={threadHref(forks[e.checkpointId]!)}>{forks[e.checkpointId]}</a>
              </span>
            )}
          </li>
        ))}
      </ol>
      {error && <p class="error">{error}</p>}
    </section>
  );
}
