/**
 * Failed tool calls by tool name. Tool names come from the model, so the counts live in a
 * null-prototype object: `toString`, `constructor` or `__proto__` are ordinary keys there, not
 * inherited members (a plain object once turned such a count into a string and disabled the
 * `tool-failed` trigger). It is JSON like any other object; restored state is converted back.
 */
export type ToolFailureCounts = Readonly<Record<string, number>>;

/** No failures: the one shared empty count (null-prototype, frozen). */
export const NO_TOOL_FAILURES: ToolFailureCounts = Object.freeze(Object.create(null));

/** A frozen null-prototype copy of `counts` with `changes` applied. */
export function withToolFailures(
  counts: ToolFailureCounts,
  changes: (draft: Record<string, number>) => void,
): ToolFailureCounts {
  const draft = Object.assign(Object.create(null) as Record<string, number>, counts);
  changes(draft);
  return Object.freeze(draft);
}

/** `counts` with `added` added to it (a new frozen null-prototype object). */
export function addToolFailures(
  counts: ToolFailureCounts,
  added: ToolFailureCounts,
): ToolFailureCounts {
  return withToolFailures(counts, (draft) => {
    for (const name of Object.keys(added))
      draft[name] = toolFailureCount(draft, name) + toolFailureCount(added, name);
  });
}

/** The count for `name`: own entries only, 0 when there is none. */
export function toolFailureCount(counts: ToolFailureCounts, name: string): number {
  if (!Object.hasOwn(counts, name)) return 0;
  const count = counts[name];
  return typeof count === 'number' ? count : 0;
}

/** Every count added up. */
export function totalToolFailures(counts: ToolFailureCounts): number {
  let total = 0;
  for (const name of Object.keys(counts)) total += toolFailureCount(counts, name);
  return total;
}
