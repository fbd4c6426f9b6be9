import type { ToolCall } from '@skein/spec';

/**
 * The calls with ids made unique within the list: a repeated id becomes `<id>_2`, `<id>_3`… (the
 * first keeps its own, and a suffix already taken is skipped). Providers answer each call by id,
 * so two calls sharing one would both show one result. Deterministic: a replayed response gets
 * the same ids. Returns the same array when nothing repeats.
 */
export function uniqueToolCallIds(calls: readonly ToolCall[]): readonly ToolCall[] {
  const seen = new Set<string>();
  let repeated = false;
  for (const call of calls) {
    if (seen.has(call.id)) repeated = true;
    seen.add(call.id);
  }
  if (!repeated) return calls;
  const used = new Set<string>();
  const taken = new Set(calls.map((c) => c.id));
  return calls.map((call) => {
    if (!used.has(call.id)) {
      used.add(call.id);
      return call;
    }
    let n = 2;
    while (taken.has(`${call.id}_${n}`) || used.has(`${call.id}_${n}`)) n++;
    const id = `${call.id}_${n}`;
    used.add(id);
    return { ...call, id };
  });
}
