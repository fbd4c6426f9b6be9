// The chat service's browser page: `useChat` from @ai-sdk/react against the UI mode's chat
// endpoint. Bundled in memory by esbuild when the UI starts (outside the TypeScript build: no
// React types in this app).
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';

// One chat per `?chat=` name, so two tabs can hold two conversations.
const chatId = new URLSearchParams(location.search).get('chat') ?? 'demo';

/** A tool's output as text: the chat's tools answer with strings, others with JSON. */
const shown = (output) => (typeof output === 'string' ? output : JSON.stringify(output));

function ToolPart({ part, answer }) {
  return (
    <div className="tool" data-call={part.toolCallId} data-state={part.state}>
      <code>
        {part.type.slice('tool-'.length)} {JSON.stringify(part.input)}
      </code>
      {part.state === 'approval-requested' && (
        <span className="approval">
          <button type="button" onClick={() => answer(part.approval.id, true)}>
            Approve
          </button>
          <button type="button" onClick={() => answer(part.approval.id, false)}>
            Deny
          </button>
        </span>
      )}
      {part.state === 'output-available' && <pre className="output">{shown(part.output)}</pre>}
      {part.state === 'output-denied' && <p className="denied">Denied</p>}
      {part.state === 'output-error' && <p className="error">{part.errorText}</p>}
    </div>
  );
}

function Part({ part, answer }) {
  if (part.type === 'text') return <p className="text">{part.text}</p>;
  if (part.type.startsWith('tool-')) return <ToolPart part={part} answer={answer} />;
  // Step markers and Skein's data parts carry nothing to read.
  return null;
}

function Chat({ initial }) {
  const [text, setText] = useState('');
  const [queued, setQueued] = useState(false);
  const { messages, sendMessage, status, error, addToolApprovalResponse } = useChat({
    id: chatId,
    messages: initial,
    // After a reload mid-answer, GET /api/chat/:id/stream replays the answer and follows it.
    resume: true,
    transport: new DefaultChatTransport({ api: '/api/chat' }),
    // Once every approval asked for is answered, the thread resumes without another message.
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    // The thread runs in another process, or waits: the message is answered there, later.
    onData: (part) => part.type === 'data-skein-posted' && setQueued(true),
  });
  const answer = (id, approved) =>
    addToolApprovalResponse(
      approved ? { id, approved } : { id, approved, reason: 'Denied in the page' },
    );
  // A message sent while an answer streams waits for it (the server's `ifBusy`, `queue` by
  // default): it is answered next, in its own turn, so the form stays open.
  return (
    <main>
      <ol>
        {messages.map((m) => (
          <li key={m.id} className="message" data-role={m.role}>
            {m.parts.map((part, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: parts have no id of their own
              <Part key={i} part={part} answer={answer} />
            ))}
          </li>
        ))}
      </ol>
      {error && <p role="alert">{error.message}</p>}
      {queued && <p className="queued">Queued: reload to see the answer once the chat is free.</p>}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!text.trim()) return;
          setQueued(false);
          sendMessage({ text });
          setText('');
        }}
      >
        <input
          aria-label="Message"
          placeholder="Ask about the weather, or book a flight"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit">Send</button>
      </form>
      <p data-testid="status">{status}</p>
    </main>
  );
}

// The stored conversation first (the server's truth, across restarts), then the chat.
const root = document.getElementById('root');
fetch(`/api/chat/${encodeURIComponent(chatId)}/messages`)
  .then(async (response) => {
    if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
    return response.json();
  })
  .then(({ messages }) => createRoot(root).render(<Chat initial={messages} />))
  .catch((error) => {
    root.textContent = `Could not load the chat: ${error.message}`;
  });
