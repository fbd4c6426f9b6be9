import type { ThreadContext } from '@skein/core';
import type { ToolSpec } from '@skein/spec';

/** The tools a thread could use (initial, then dynamic), as the model was told of them. */
export function threadToolSpecs(thread: ThreadContext): ToolSpec[] {
  const { initial, dynamic } = thread.availableTools;
  const seen = new Set<string>();
  const specs: ToolSpec[] = [];
  for (const tool of [...initial, ...dynamic]) {
    if (seen.has(tool.name)) continue;
    seen.add(tool.name);
    specs.push({ name: tool.name, description: tool.description, parameters: tool.parameters });
  }
  return specs;
}
