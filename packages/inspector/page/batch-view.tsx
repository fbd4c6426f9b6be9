import { useState } from 'preact/hooks';
import type { ThreadDetail } from './api.js';
import { formatTokens } from './format.js';
import { MessageView } from './message-view.js';

/**
 * The conversation by batch: every stored message in storage order, the ones the selected batch
 * shows highlighted (with their place in the view), and CLEAR / rollback boundaries between.
 */
export function BatchView({ detail }: { detail: ThreadDetail }) {
  const current = detail.batches.find((b) => b.current) ?? detail.batches.at(-1);
  const [chosen, setChosen] = useState<number>();
  const batch = detail.batches.find((b) => b.index === chosen) ?? current;
  if (!batch) return null;
  const order = new Map(batch.visible.map((position, i) => [position, i]));
  const pairs = new Map(detail.toolPairs.map((p) => [p.callId, p]));
  const boundariesAt = (position: number) => detail.boundaries.filter((b) => b.at === position);
  const trailing = boundariesAt(detail.messages.length);
  return (
    <section class="conversation">
      <h2>Conversation by batch</h2>
      <div class="batch-tabs" role="tablist">
        {detail.batches.map((b) => (
          <button
            type="button"
            role="tab"
            aria-selected={b.index === batch.index}
            class={b.index === batch.index ? 'selected' : ''}
            data-batch={b.index}
            onClick={() => setChosen(b.index)}
          >
            batch {b.index}
            {b.current ? ' (current)' : b.onStack ? '' : ' (rolled back)'}
          </button>
        ))}
      </div>
      <p class="counts" data-testid="batch-counts">
        <span data-testid="stored-count">{detail.messages.length}</span> stored ·{' '}
        <span data-testid="visible-count">{batch.visible.length}</span> visible in batch{' '}
        {batch.index} · started at message {batch.startedAt}
        {batch.withInitialTools ? ' with the tool description' : ''}
        {batch.summary ? (
          <span data-testid="batch-summary">
            {' '}
            · a summary of{' '}
            {batch.summary.summarized === undefined
              ? 'earlier messages'
              : `${batch.summary.summarized} earlier messages`}{' '}
            (message {batch.summary.position})
          </span>
        ) : null}{' '}
        · {formatTokens(batch.usage.promptTokens)} prompt /{' '}
        {formatTokens(batch.usage.completionTokens)} completion tokens
      </p>
      <ol class="messages">
        {detail.messages.map((m) => (
          <>
            {boundariesAt(m.position).map((b) => (
              <li class={`boundary boundary-${b.kind}`} data-boundary={b.kind}>
                {b.label}
              </li>
            ))}
            <MessageView
              threadId={detail.summary.threadId}
              message={m}
              viewIndex={order.get(m.position)}
              pairs={pairs}
            />
          </>
        ))}
        {trailing.map((b) => (
          <li class={`boundary boundary-${b.kind}`} data-boundary={b.kind}>
            {b.label}
          </li>
        ))}
      </ol>
    </section>
  );
}
