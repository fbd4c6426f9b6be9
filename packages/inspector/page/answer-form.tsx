import { useState } from 'preact/hooks';
import { api } from './api.js';

interface UserInput {
  readonly kind: 'user-input';
  readonly nodeId: string;
  readonly prompt?: string;
}
interface ToolApproval {
  readonly kind: 'tool-approval';
  readonly nodeId: string;
  readonly calls: readonly { id: string; name: string; arguments: string }[];
  readonly awaiting: readonly string[];
}

interface FormProps {
  readonly allowed: boolean;
  readonly sent: boolean;
  readonly send: (input: unknown) => void;
}

function UserInputForm({ pending, allowed, sent, send }: FormProps & { pending: UserInput }) {
  const [answer, setAnswer] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        send(answer);
      }}
    >
      <p>{pending.prompt ?? 'An answer is needed.'}</p>
      <input
        name="answer"
        value={answer}
        disabled={!allowed || sent}
        onInput={(e) => setAnswer(e.currentTarget.value)}
      />{' '}
      <button type="submit" disabled={!allowed || sent}>
        Answer
      </button>
    </form>
  );
}

function ApprovalForm({ pending, allowed, sent, send }: FormProps & { pending: ToolApproval }) {
  const [decisions, setDecisions] = useState<Record<string, boolean>>({});
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        send({
          approvals: Object.fromEntries(pending.awaiting.map((id) => [id, decisions[id] === true])),
        });
      }}
    >
      <ul>
        {pending.calls
          .filter((c) => pending.awaiting.includes(c.id))
          .map((c) => (
            <li>
              <label>
                <input
                  type="checkbox"
                  name={c.id}
                  disabled={!allowed || sent}
                  checked={decisions[c.id] === true}
                  onChange={(e) => setDecisions({ ...decisions, [c.id]: e.currentTarget.checked })}
                />{' '}
                approve <code>{c.name}</code> <code>{c.arguments}</code>
              </label>
            </li>
          ))}
      </ul>
      <button type="submit" disabled={!allowed || sent}>
        Send decisions
      </button>
    </form>
  );
}

/** The paused thread's question, and a way to answer it when the inspector allows resuming. */
export function AnswerForm(props: {
  threadId: string;
  pending: unknown;
  allowed: boolean;
  onSent: () => void;
}) {
  const pending = props.pending as { kind: string; nodeId: string };
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState(false);
  const send = (input: unknown) => {
    setError(undefined);
    api.resume(props.threadId, input).then(
      () => {
        setSent(true);
        props.onSent();
      },
      (e: Error) => setError(e.message),
    );
  };
  const form = { allowed: props.allowed, sent, send };
  return (
    <section class="pending" data-testid="pending">
      <h2>Waiting at {pending.nodeId}</h2>
      {pending.kind === 'user-input' ? (
        <UserInputForm pending={pending as UserInput} {...form} />
      ) : pending.kind === 'tool-approval' ? (
        <ApprovalForm pending={pending as ToolApproval} {...form} />
      ) : (
        <p>Waiting ({pending.kind}): answer the threads it waits for.</p>
      )}
      {!props.allowed && (
        <p class="muted">
          Read-only: start the inspector with an engine and allowResume to answer here.
        </p>
      )}
      {sent && <p class="muted">Sent; the thread goes on.</p>}
      {error && <p class="error">{error}</p>}
    </section>
  );
}
