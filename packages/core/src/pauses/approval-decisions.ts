import { ThreadError } from '../errors/thread-error.js';

/** What a resume may say about one call: approved or not, and why not. */
export type ApprovalDecision = boolean | { readonly approved: boolean; readonly reason?: string };

/** The shape a tool-approval pause is answered with, for the docs and the error. */
const EXPECTED =
  'tool approval needs `true`, `false` or `{ approvals: { [toolCallId]: boolean | { approved: boolean, reason?: string } } }`';

function readDecision(
  threadId: string,
  id: string,
  value: unknown,
): { approved: boolean; reason: string | undefined } | undefined {
  if (typeof value === 'boolean') return { approved: value, reason: undefined };
  if (typeof value !== 'object' || value === null) return undefined;
  const { approved, reason } = value as { approved?: unknown; reason?: unknown };
  if (typeof approved !== 'boolean') return undefined;
  if (reason !== undefined && typeof reason !== 'string')
    throw ThreadError.resumeInput(threadId, `approvals.${id}.reason must be a string`);
  return { approved, reason: reason === '' ? undefined : (reason as string | undefined) };
}

/**
 * The calls of a tool-approval pause (the ids it `awaiting`s) that were not approved, each with
 * the reason the model is shown. `true` / `false` decide every awaited call; `{ approvals }` must
 * decide each one and name no other (a typo in an id would otherwise approve nothing while
 * looking like an answer). Anything else is refused, leaving the thread paused.
 */
export function rejectedCalls(
  threadId: string,
  awaiting: readonly string[],
  input: unknown,
): Map<string, string | undefined> {
  const rejected = new Map<string, string | undefined>();
  if (typeof input === 'boolean') {
    if (!input) for (const id of awaiting) rejected.set(id, undefined);
    return rejected;
  }
  const approvals = (input as { approvals?: unknown } | null)?.approvals;
  // The ids it waits for go in every refusal: a model that mistyped one can answer again.
  if (typeof approvals !== 'object' || approvals === null || Array.isArray(approvals))
    throw ThreadError.resumeInput(threadId, `${EXPECTED}; it waits for ${awaiting.join(', ')}`);
  const unknown = Object.keys(approvals).filter((id) => !awaiting.includes(id));
  if (unknown.length > 0)
    throw ThreadError.resumeInput(
      threadId,
      `approvals name ${unknown.length === 1 ? 'a call' : 'calls'} the pause does not wait for (${unknown
        .slice(0, 5)
        .map((id) => JSON.stringify(id.slice(0, 100)))
        .join(', ')}); it waits for ${awaiting.join(', ')}`,
    );
  const missing: string[] = [];
  for (const id of awaiting) {
    const given = Object.hasOwn(approvals, id)
      ? (approvals as Record<string, unknown>)[id]
      : undefined;
    const decision = readDecision(threadId, id, given);
    if (!decision) missing.push(id);
    else if (!decision.approved) rejected.set(id, decision.reason);
  }
  if (missing.length > 0)
    throw ThreadError.resumeInput(
      threadId,
      `no decision for tool call${missing.length === 1 ? '' : 's'} ${missing.join(', ')}: ${EXPECTED}`,
    );
  return rejected;
}
