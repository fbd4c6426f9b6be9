import type { TrippedGuardrailView } from './api.js';

/** Where the guardrail looked, in words. */
function stageText(trip: TrippedGuardrailView): string {
  const tool = trip.toolName ? `"${trip.toolName}"` : 'a tool';
  switch (trip.stage) {
    case 'input':
      return 'on the input';
    case 'output':
      return "on the model's answer";
    case 'tool-call':
      return `on the call to ${tool}`;
    case 'tool-result':
      return `on the result of ${tool}`;
    default:
      return `at stage ${trip.stage}`;
  }
}

/**
 * A thread a guardrail stopped, said first and plainly: which guardrail, where, and its reason
 * (nothing runs the thread past it: resume and recover refuse it).
 */
export function GuardrailTrip({ trip, nodeId }: { trip: TrippedGuardrailView; nodeId?: string }) {
  return (
    <div class="guardrail-trip" role="alert" data-testid="guardrail-trip">
      <p class="guardrail-title">
        Stopped by guardrail <code data-testid="guardrail-name">{trip.name}</code>{' '}
        <span data-testid="guardrail-stage" data-stage={trip.stage}>
          {stageText(trip)}
        </span>
        {nodeId ? <span class="muted"> (node {nodeId})</span> : null}
        {trip.toolCallId ? <span class="muted"> · call {trip.toolCallId}</span> : null}
      </p>
      <p class="guardrail-reason" data-testid="guardrail-reason">
        {trip.reason}
      </p>
      <p class="muted">
        GUARDRAIL_TRIPPED: the thread will not run again
        {trip.endsChat ? '; the chat is over (its next message is refused too).' : '.'}
      </p>
    </div>
  );
}
