import type { StoredMessage, ToolPair } from './api.js';
import { PartView } from './part-view.js';

/** The message's content: its text, or its parts in order (text as text, media by `PartView`). */
function Content({ threadId, message: m }: { threadId: string; message: StoredMessage }) {
  if (m.parts === undefined)
    return m.content === '' ? null : <pre class="content">{m.content}</pre>;
  return (
    <div class="parts">
      {m.parts.map((part) =>
        part.type === 'text' ? (
          <pre class="content">{part.text}</pre>
        ) : (
          <PartView threadId={threadId} position={m.position} part={part} />
        ),
      )}
    </div>
  );
}

/**
 * One stored message. Everything from the model is rendered as text (Preact escapes it); nothing
 * here sets HTML.
 */
export function MessageView(props: {
  threadId: string;
  message: StoredMessage;
  viewIndex: number | undefined;
  pairs: ReadonlyMap<string, ToolPair>;
}) {
  const { threadId, message: m, viewIndex, pairs } = props;
  const visible = viewIndex !== undefined;
  const classes = [
    'message',
    `role-${m.role}`,
    visible ? 'visible' : 'hidden',
    m.isToolDescription ? 'tool-description' : '',
    m.isError ? 'is-error' : '',
  ];
  return (
    <li
      class={classes.join(' ')}
      data-position={m.position}
      data-visible={visible ? 'true' : 'false'}
    >
      <div class="message-head">
        <span class="pos">#{m.position}</span> <strong>{m.role}</strong>
        {m.name && <span class="muted"> {m.name}</span>}
        {m.isToolDescription && <span class="tag">tool description</span>}
        {visible ? (
          <span class="tag seen">seen #{viewIndex}</span>
        ) : (
          <span class="tag">not in batch</span>
        )}
        {m.toolCallId && (
          <span class="muted">
            {' '}
            answers <code>{m.toolCallId}</code>
            {pairs.get(m.toolCallId) && ` (call in #${pairs.get(m.toolCallId)!.callPosition})`}
          </span>
        )}
      </div>
      <Content threadId={threadId} message={m} />
      {m.toolCalls?.map((call) => {
        const pair = pairs.get(call.id);
        return (
          <div class={`tool-pair${pair?.isError ? ' is-error' : ''}`} data-call={call.id}>
            <div>
              calls <code>{call.name}</code> <span class="muted">{call.id}</span>
            </div>
            <pre class="arguments">{pair?.arguments ?? call.arguments}</pre>
            {pair?.result === undefined ? (
              <div class="muted result">no result yet</div>
            ) : (
              <div class="result" data-result-position={pair.resultPosition}>
                <span class="muted">
                  result{pair.resultPosition === undefined ? '' : ` (#${pair.resultPosition})`}:
                </span>
                <pre class={pair.isError ? 'error' : ''}>{pair.result}</pre>
              </div>
            )}
          </div>
        );
      })}
    </li>
  );
}
