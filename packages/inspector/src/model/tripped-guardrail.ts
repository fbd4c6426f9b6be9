import type { TrippedGuardrailView } from './types.js';

const text = (value: unknown): value is string => typeof value === 'string';

/**
 * A stored error's guardrail trip, as the page shows it; undefined when there is none or it is
 * not the shape @skein/core stores (the store is read as it is: nothing in it is trusted).
 */
export function trippedGuardrail(stored: unknown): TrippedGuardrailView | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined;
  const trip = stored as Record<string, unknown>;
  if (!text(trip.name) || !text(trip.stage) || !text(trip.reason)) return undefined;
  return {
    name: trip.name,
    stage: trip.stage,
    reason: trip.reason,
    ...(trip.endsChat === true ? { endsChat: true } : {}),
    ...(text(trip.toolCallId) ? { toolCallId: trip.toolCallId } : {}),
    ...(text(trip.toolName) ? { toolName: trip.toolName } : {}),
  };
}
