import type { StoredMessage, ToolPair } from './api.js';

/**
 * One stored message. Everything from the model is rendered as text (Preact escapes it); nothing
 * here sets HTML.
 */
export function MessageView(props: {
  message: StoredMessage;
  viewIndex: number | undefined;
  pairs: ReadonlyMap<string, ToolPair>;
}) {
  const { message: m, viewIndex, pairs } = props;
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
      {m.content !== '' && <pre class="content">{m.content}</pre>}
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
