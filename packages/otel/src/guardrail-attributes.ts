import type { Attributes } from '@opentelemetry/api';
import type { GuardrailVerdictEvent, ThreadFinishedEvent } from '@skein/core';
import * as a from './attributes.js';
import { boundedAttributes } from './bounded-value.js';

/** The name of the span event each guardrail verdict (other than pass) becomes. */
export const GUARDRAIL_EVENT = 'skein.guardrail';

/** A verdict's span event attributes: the guardrail, stage, action, reason, and the tool call. */
export function verdictAttributes(event: GuardrailVerdictEvent, limit: number): Attributes {
  const attributes: Attributes = {
    [a.SKEIN_GUARDRAIL_NAME]: event.guardrail,
    [a.SKEIN_GUARDRAIL_STAGE]: event.stage,
    [a.SKEIN_GUARDRAIL_ACTION]: event.action,
  };
  if (event.reason !== undefined) attributes[a.SKEIN_GUARDRAIL_REASON] = event.reason;
  if (event.toolCallId !== undefined) attributes[a.GEN_AI_TOOL_CALL_ID] = event.toolCallId;
  if (event.toolName !== undefined) attributes[a.GEN_AI_TOOL_NAME] = event.toolName;
  return boundedAttributes(attributes, limit);
}

/**
 * A thread run a guardrail stopped: `skein.guardrail.tripped` (its name), with its stage and
 * reason; undefined for any other end. A branch's trip ends its parent too, which says so here.
 */
export function tripAttributes(event: ThreadFinishedEvent, limit: number): Attributes | undefined {
  const trip = event.error?.guardrail;
  if (!trip) return undefined;
  return boundedAttributes(
    {
      [a.SKEIN_GUARDRAIL_TRIPPED]: trip.name,
      [a.SKEIN_GUARDRAIL_STAGE]: trip.stage,
      [a.SKEIN_GUARDRAIL_REASON]: trip.reason,
    },
    limit,
  );
}
