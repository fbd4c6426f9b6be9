// The page of the browser test: `useChat` from @ai-sdk/react against a Skein chat server. Built
// with esbuild by the test (kept out of the package's TypeScript build: no React types here).
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';

const chatId = new URLSearchParams(location.search).get('chat') ?? 'browser-chat';

function Part({ part, approve }) {
  if (part.type === 'text') return <p className="text">{part.text}</p>;
  if (part.type === 'file')
    return (
      <a className="file" href={part.url} download={part.filename} data-media-type={part.mediaType}>
        {part.filename ?? part.mediaType}
      </a>
    );
  if (!part.type.startsWith('tool-')) return null;
  return (
    <div className="tool" data-call={part.toolCallId} data-state={part.state}>
      <code>
        {part.type.slice(5)} {JSON.stringify(part.input)}
      </code>
      {part.state === 'approval-requested' && (
        <>
          <button type="button" onClick={() => approve(part.approval.id, true)}>
            Approve
          </button>
          <button type="button" onClick={() => approve(part.approval.id, false)}>
            Deny
          </button>
        </>
      )}
      {part.state === 'output-available' && (
        <pre className="output">{JSON.stringify(part.output)}</pre>
      )}
    </div>
  );
}

/** A message without the text of its last step: what a `data-skein-retract` part takes back. */
function withoutLastStepText(message) {
  const step = message.parts.findLastIndex((p) => p.type === 'step-start');
  return { ...message, parts: message.parts.filter((p, i) => i < step || p.type !== 'text') };
}

function Chat({ initial }) {
  const [text, setText] = useState('');
  const [notice, setNotice] = useState('');
  const attach = useRef(null);
  const { messages, setMessages, sendMessage, status, error, addToolApprovalResponse } = useChat({
    id: chatId,
    messages: initial,
    // A reload mid-answer asks GET /api/chat/:id/stream for the rest (204 when nothing runs).
    resume: true,
    transport: new DefaultChatTransport({ api: '/api/chat' }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    // Skein's guardrails: a retraction takes back the answer's streamed text; a trip is said.
    onData: (part) => {
      if (part.type === 'data-skein-retract')
        setMessages((all) =>
          all.map((m) => (m.id === part.data.messageId ? withoutLastStepText(m) : m)),
        );
      if (part.type === 'data-skein-guardrail' && part.data.action === 'trip')
        setNotice(`Stopped by ${part.data.guardrail}: ${part.data.reason}`);
    },
  });
  const approve = (id, approved) =>
    addToolApprovalResponse(approved ? { id, approved } : { id, approved, reason: 'not now' });
  return (
    <main>
      <ol>
        {messages.map((m) => (
          <li key={m.id} className="message" data-role={m.role} data-id={m.id}>
            {m.parts.map((part, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts have no id of their own
              <Part key={i} part={part} approve={approve} />
            ))}
          </li>
        ))}
      </ol>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          // The FileList as the input holds it: useChat reads each file into a data: URL part.
          const files = attach.current.files;
          sendMessage(files.length > 0 ? { text, files } : { text });
          setText('');
          attach.current.value = '';
        }}
      >
        <input
          aria-label="Message"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <input aria-label="Attach" type="file" ref={attach} />
        <button type="submit">Send</button>
      </form>
      <p data-testid="status">{status}</p>
      {notice && <p data-testid="guardrail">{notice}</p>}
      {error && <p data-testid="error">{error.message}</p>}
    </main>
  );
}

// The stored conversation first (the server's truth), then the chat.
fetch(`/api/chat/${encodeURIComponent(chatId)}/messages`)
  .then((response) => response.json())
  .then(({ messages }) =>
    createRoot(document.getElementById('root')).render(<Chat initial={messages} />),
  );
