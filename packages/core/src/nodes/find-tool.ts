import type { ThreadContext } from '../thread/thread-context.js';
import type { Tool } from '../tools/tool.js';
import type { ToolRegistry } from '../tools/tool-registry.js';

/**
 * The tool a node names: the thread's dynamic tools first (they replace initial ones of the same
 * name), then its initial tools, then the engine's registry. Undefined when none has it.
 */
export function findTool(
  thread: ThreadContext,
  registry: ToolRegistry,
  name: string,
): Tool | undefined {
  const { initial, dynamic } = thread.availableTools;
  return (
    dynamic.find((t) => t.name === name) ??
    initial.find((t) => t.name === name) ??
    registry.get(name)
  );
}
