import type { CompiledEdge } from './compiled-workflow.js';
import { reachableFrom, stronglyConnected } from './graph.js';
import type { Checker } from './workflow-checker.js';

/** Every node reachable from `start`, some END among them, and no cycle without a way out. */
export function checkReachability(
  start: string,
  nodeIds: Iterable<string>,
  ends: readonly string[],
  outgoing: ReadonlyMap<string, readonly CompiledEdge[]>,
  checker: Checker,
): void {
  const next = (id: string) => (outgoing.get(id) ?? []).map((e) => e.to);
  const reachable = reachableFrom(start, next);
  for (const id of nodeIds)
    if (!reachable.has(id))
      checker.add({
        code: 'UNREACHABLE_NODE',
        nodeId: id,
        message: 'node cannot be reached from START',
      });
  if (ends.length > 0 && !ends.some((id) => reachable.has(id)))
    checker.add({ code: 'NO_REACHABLE_END', message: 'no END node can be reached from START' });
  for (const component of stronglyConnected([...reachable], next)) {
    const members = new Set(component);
    const first = component[0]!;
    const isCycle = component.length > 1 || next(first).includes(first);
    if (!isCycle) continue;
    const exits = component.some((id) => next(id).some((to) => !members.has(to)));
    if (!exits)
      checker.add({
        code: 'CYCLE_WITHOUT_EXIT',
        nodeId: [...component].sort()[0],
        message: `nodes ${[...component].sort().join(', ')} form a cycle with no edge leaving it`,
      });
  }
}
