/**
 * A non-streamed `chat.completion` as one chunk, so it goes through exactly the same assembly
 * rules as a stream (null ids, nameless calls, broken JSON). Each call gets its position as
 * `index`. Junk is passed through for the accumulator's shape checks to report.
 */
export function completionToChunk(completion: unknown): unknown {
  if (typeof completion !== 'object' || completion === null) return completion;
  const c = completion as Record<string, unknown>;
  const choices = c.choices;
  if (!Array.isArray(choices)) return completion;
  return {
    ...c,
    choices: choices.map((choice: unknown) => {
      if (typeof choice !== 'object' || choice === null) return choice;
      const { message, ...rest } = choice as Record<string, unknown>;
      if (typeof message !== 'object' || message === null) return { ...rest, delta: message };
      const { tool_calls: calls, ...fields } = message as Record<string, unknown>;
      return {
        ...rest,
        delta: {
          ...fields,
          tool_calls: Array.isArray(calls)
            ? calls.map((call: unknown, index) =>
                typeof call === 'object' && call !== null ? { ...call, index } : call,
              )
            : calls,
        },
      };
    }),
  };
}
