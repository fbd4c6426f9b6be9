'use client';

import { useChat } from '@ai-sdk/react';
import {
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from 'ai';
import { type FormEvent, useRef, useState } from 'react';

/** The chat: a token names the user (the route's `authorize`), useChat does the rest. */
export function Chat() {
  const [token, setToken] = useState('');
  const [text, setText] = useState('');
  // useChat keeps the transport it was first given: the headers are read at each request.
  const tokenRef = useRef(token);
  const [transport] = useState(
    () =>
      new DefaultChatTransport<UIMessage>({
        api: '/api/chat',
        headers: () => ({ authorization: `Bearer ${tokenRef.current}` }),
      }),
  );
  const { messages, sendMessage, addToolApprovalResponse, status, error } = useChat({
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') return;
    void sendMessage({ text });
    setText('');
  };

  return (
    <>
      <label>
        Token{' '}
        <input
          value={token}
          onChange={(e) => {
            tokenRef.current = e.target.value;
            setToken(e.target.value);
          }}
        />
      </label>
      {messages.map((message) => (
        <div key={message.id}>
          <b>{message.role}:</b>{' '}
          {message.parts.map((part, i) => {
            const key = `${message.id}-${i}`;
            if (part.type === 'text') return <span key={key}>{part.text}</span>;
            if (part.type === 'tool-pay' && part.state === 'approval-requested')
              return (
                <span key={key}>
                  Pay {JSON.stringify(part.input)}?{' '}
                  <button
                    type="button"
                    onClick={() =>
                      addToolApprovalResponse({ id: part.approval.id, approved: true })
                    }
                  >
                    Approve
                  </button>{' '}
                  <button
                    type="button"
                    onClick={() =>
                      addToolApprovalResponse({ id: part.approval.id, approved: false })
                    }
                  >
                    Deny
                  </button>
                </span>
              );
            return null;
          })}
        </div>
      ))}
      {error && <p role="alert">{error.message}</p>}
      <form onSubmit={submit}>
        <input
          value={text}
          onChange={(e) => setText(e.target.value)}
          disabled={status !== 'ready'}
        />
        <button type="submit" disabled={status !== 'ready'}>
          Send
        </button>
      </form>
    </>
  );
}
