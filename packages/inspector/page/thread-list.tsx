import { useEffect, useState } from 'preact/hooks';
import type { ThreadSummary } from './api.js';
import { api } from './api.js';
import { formatTime, formatTokens, threadHref } from './format.js';

const STATUSES = ['', 'RUNNING', 'PAUSED', 'COMPLETED', 'FAILED', 'CANCELLED', 'PENDING'];

export function ThreadList() {
  const [status, setStatus] = useState('');
  const [workflow, setWorkflow] = useState('');
  const [text, setText] = useState('');
  const [data, setData] = useState<{ threads: ThreadSummary[]; workflows: string[] }>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    const query = new URLSearchParams();
    if (status) query.set('status', status);
    if (workflow) query.set('workflow', workflow);
    if (text) query.set('text', text);
    let cancelled = false;
    const load = () =>
      api.threads(query).then(
        (d) => !cancelled && setData(d),
        (e: Error) => !cancelled && setError(e.message),
      );
    void load();
    const timer = setInterval(load, 2000);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [status, workflow, text]);

  return (
    <section>
      <h1>Threads</h1>
      <form class="filters" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status{' '}
          <select value={status} onChange={(e) => setStatus(e.currentTarget.value)} name="status">
            {STATUSES.map((s) => (
              <option value={s}>{s || 'any'}</option>
            ))}
          </select>
        </label>
        <label>
          Workflow{' '}
          <select
            value={workflow}
            onChange={(e) => setWorkflow(e.currentTarget.value)}
            name="workflow"
          >
            <option value="">any</option>
            {data?.workflows.map((w) => (
              <option value={w}>{w}</option>
            ))}
          </select>
        </label>
        <label>
          Search{' '}
          <input
            name="text"
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
            placeholder="thread id, workflow, error"
          />
        </label>
      </form>
      {error && <p class="error">{error}</p>}
      <table class="threads">
        <thead>
          <tr>
            <th>Thread</th>
            <th>Status</th>
            <th>Workflow</th>
            <th>Started</th>
            <th class="num">Steps</th>
            <th class="num">Tokens</th>
            <th>Last error</th>
          </tr>
        </thead>
        <tbody>
          {data?.threads.map((t) => (
            <tr data-thread={t.threadId}>
              <td>
                <a href={threadHref(t.threadId)}>{t.threadId}</a>
                {t.parentThreadId && <span class="muted"> ↳ {t.parentThreadId}</span>}
              </td>
              <td>
                <span class={`status status-${t.status.toLowerCase()}`}>{t.status}</span>
              </td>
              <td>
                {t.workflowId} <span class="muted">v{t.workflowVersion}</span>
              </td>
              <td>{formatTime(t.startedAt)}</td>
              <td class="num">{t.steps}</td>
              <td class="num">{formatTokens(t.tokens.totalTokens)}</td>
              <td class="error">
                {t.lastError ? `${t.lastError.code}: ${t.lastError.message}` : ''}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data && data.threads.length === 0 && <p class="muted">No threads match.</p>}
    </section>
  );
}
