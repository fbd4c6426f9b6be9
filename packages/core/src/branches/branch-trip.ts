import type { GuardrailStage } from '../guardrails/guardrail.js';
import { GuardrailError } from '../guardrails/guardrail-error.js';
import type { ChildOutcome } from './child-plan.js';

/**
 * A guardrail that tripped in a child thread trips its parent too, whatever the JOIN's
 * `onError` says: a trip is a stop, not a failed branch to collect. Throws the trip, with the
 * branch it happened in; does nothing for any other outcome.
 */
export function throwChildTrip(outcome: ChildOutcome | undefined): void {
  const error = outcome?.error;
  if (!outcome || error?.code !== 'GUARDRAIL_TRIPPED') return;
  const thrown = error as Partial<GuardrailError>;
  const stored = outcome.thread?.state.error?.guardrail;
  const stage = thrown.stage ?? (stored?.stage as GuardrailStage | undefined);
  const endsChat = thrown.endsChat ?? stored?.endsChat;
  throw GuardrailError.tripped({
    guardrail: thrown.guardrail ?? stored?.name ?? 'unknown',
    ...(stage ? { stage } : {}),
    reason: `${thrown.reason ?? stored?.reason ?? error.message} (in ${outcome.plan.path})`,
    ...(endsChat ? { endsChat: true } : {}),
  });
}
