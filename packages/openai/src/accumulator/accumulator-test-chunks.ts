import { ToolCallAccumulator } from './tool-call-accumulator.js';
import type { ToolCallAccumulatorOptions } from './types.js';

// Chunk builders shared by the accumulator's tests.

export type Fragment = Record<string, unknown>;

/** A chunk whose only choice carries `delta`. */
export function chunk(delta: Record<string, unknown>, finish: string | null = null): unknown {
  return { object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] };
}

export function calls(...fragments: Fragment[]): unknown {
  return chunk({ tool_calls: fragments });
}

export function fn(fields: { name?: unknown; arguments?: unknown }): {
  function: Record<string, unknown>;
} {
  return { function: fields };
}

export function run(chunks: readonly unknown[], options: ToolCallAccumulatorOptions = {}) {
  const accumulator = new ToolCallAccumulator(options);
  for (const c of chunks) accumulator.push(c);
  return accumulator.finish();
}

export function brief(chunks: readonly unknown[]) {
  return run(chunks).toolCalls.map(({ id, name, arguments: args }) => ({ id, name, args }));
}
