import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { AnswerForm } from './answer-form.js';
import type { HistoryItem, Info, ThreadDetail } from './api.js';
import { api } from './api.js';
import { BatchView } from './batch-view.js';
import { BranchTree } from './branch-tree.js';
import { formatTime, formatTokens, threadHref } from './format.js';
import { GraphView } from './graph-view.js';
import { GuardrailTrip } from './guardrail-trip.js';
import { HistoryView } from './history-view.js';
import { NotFound } from './not-found.js';
import { TimelineView } from './timeline-view.js';
import { TokenChart } from './token-chart.js';

/**
 * One thread: header, answer form when paused, timeline, graph, history, token chart, batches.
 */
export function ThreadPage({ threadId }: { threadId: string }) {
  const [detail, setDetail] = useState<ThreadDetail>();
  const [missing, setMissing] = useState(false);
  const [info, setInfo] = useState<Info>();
  const [error, setError] = useState<string>();
  const [updates, setUpdates] = useState(0);
  const [history, setHistory] = useState<readonly HistoryItem[]>();
  const pending = useRef<ReturnType<typeof setTimeout>>();
  const checkpointId = detail?.checkpointId;

  const reload = useCallback(() => {
    api.thread(threadId).then(
      (d) => {
        if (d === undefined) setMissing(true);
        else setDetail(d);
        setError(undefined);
      },
      (e: Error) => setError(e.message),
    );
  }, [threadId]);

  useEffect(() => {
    reload();
    void api.info().then(setInfo);
    const events = api.events(threadId);
    // Events come in bursts (a node emits several): one reload per burst.
    const onUpdate = () => {
      setUpdates((n) => n + 1);
      clearTimeout(pending.current);
      pending.current = setTimeout(reload, 100);
    };
    // `ready` comes once the stream follows the thread (again, after a reconnect): what happened
    // between the first read and then is read once more, or the page would show it never.
    for (const name of [
      'ready',
      'checkpoint',
      'checkpoint:saved',
      'message:added',
      'thread:completed',
      'thread:failed',
      'thread:paused',
      'thread:cancelled',
      'node:completed',
    ])
      events.addEventListener(name, onUpdate);
    return () => {
      events.close();
      clearTimeout(pending.current);
    };
  }, [threadId, reload]);

  // The history changes only with a new checkpoint: read it again then, not on every event.
  useEffect(() => {
    if (checkpointId === undefined) return;
    api.history(threadId).then(setHistory, (e: Error) => setError(e.message));
  }, [threadId, checkpointId]);

  if (missing && !detail) return <NotFound what="thread" />;
  if (error && !detail) return <p class="error">{error}</p>;
  if (!detail) return <p class="muted">Loading…</p>;
  const s = detail.summary;
  return (
    <section class="thread" data-checkpoint={detail.checkpointId}>
      <h1>
        {s.threadId}{' '}
        <span class={`status status-${s.status.toLowerCase()}`} data-testid="status">
          {s.status}
        </span>
      </h1>
      <p class="meta">
        {s.workflowId} v{s.workflowVersion} · started {formatTime(s.startedAt)} · {s.steps} steps ·{' '}
        {formatTokens(s.tokens.totalTokens)} tokens ({formatTokens(s.tokens.promptTokens)} in,{' '}
        {formatTokens(s.tokens.completionTokens)} out) ·{' '}
        <span class="muted" data-testid="live">
          live ({info?.live ?? '…'}), {updates} updates
        </span>
      </p>
      {s.parentThreadId && (
        <p>
          Started by <a href={threadHref(s.parentThreadId)}>{s.parentThreadId}</a>
        </p>
      )}
      {s.forkedFrom && (
        <p data-testid="forked-from">
          Forked from <a href={threadHref(s.forkedFrom.threadId)}>{s.forkedFrom.threadId}</a> at{' '}
          <code>{s.forkedFrom.checkpointId}</code>
        </p>
      )}
      {s.lastError?.guardrail && (
        <GuardrailTrip trip={s.lastError.guardrail} nodeId={s.lastError.nodeId} />
      )}
      {s.lastError && !s.lastError.guardrail && (
        <p class="error">
          {s.lastError.code}: {s.lastError.message}
          {s.lastError.nodeId ? ` (node ${s.lastError.nodeId})` : ''}
        </p>
      )}
      {s.status === 'PAUSED' && detail.pending !== undefined && (
        <AnswerForm
          threadId={s.threadId}
          pending={detail.pending}
          allowed={info?.allowResume === true}
          onSent={reload}
        />
      )}
      {detail.children.length > 0 && (
        <BranchTree children={detail.children} ownPath={s.branchPath} />
      )}
      <div class="columns">
        <TimelineView entries={detail.timeline} />
        <GraphView graph={detail.graph} currentNodeId={detail.currentNodeId} />
      </div>
      {history && (
        <HistoryView
          threadId={s.threadId}
          entries={history}
          // A branch is forked with its top-level thread (the engine refuses a branch alone).
          canFork={info?.allowFork === true && s.parentThreadId === undefined}
        />
      )}
      <TokenChart batches={detail.batches} />
      <BatchView detail={detail} />
    </section>
  );
}
