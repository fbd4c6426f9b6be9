import type { SkeinError } from '@skein/spec';
import type { GuardrailError } from '../guardrails/guardrail-error.js';
import type { ThreadContext } from '../thread/thread-context.js';
import type { TrippedGuardrail } from '../thread/thread-state.js';

/** The stored form of a trip, or undefined for any other error. */
export function trippedGuardrail(error: SkeinError): TrippedGuardrail | undefined {
  if (error.code !== 'GUARDRAIL_TRIPPED') return undefined;
  const trip = error as GuardrailError;
  return {
    name: trip.guardrail,
    stage: trip.stage ?? 'input',
    reason: trip.reason,
    ...(trip.endsChat ? { endsChat: true } : {}),
    ...(trip.toolCallId === undefined
      ? {}
      : { toolCallId: trip.toolCallId, toolName: trip.toolName ?? '' }),
  };
}

/**
 * A trip at the input (the node already undone): the user messages the tripping guardrail judged
 * stay stored but leave the model's view, each replaced by a notice, and its mark moves past
 * them, so a chat's next turn neither shows them to the model nor checks them again. Returns the
 * marks for the `finished` transition.
 */
export function withholdTripped(
  thread: ThreadContext,
  trip: TrippedGuardrail,
): Readonly<Record<string, number>> | undefined {
  if (trip.stage !== 'input') return undefined;
  const { conversation } = thread;
  const from = thread.state.guarded?.[trip.name] ?? 0;
  const judged = new Set();
  for (let p = from; p < conversation.getTotalMessageCount(); p++) {
    const message = conversation.getStoredMessage(p);
    if (message?.role === 'user') judged.add(message);
  }
  const notice = `[withheld: guardrail "${trip.name}" stopped this message: ${trip.reason}]`;
  conversation.getMessages().forEach((message, position) => {
    if (judged.has(message))
      conversation.applyOperation({
        type: 'REPLACE',
        position,
        message: { role: 'user', content: notice, metadata: { withheldBy: trip.name } },
      });
  });
  return { [trip.name]: conversation.getTotalMessageCount() };
}
