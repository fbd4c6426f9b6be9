/** A directed edge between two node ids. */
export interface GraphEdgeInput {
  readonly from: string;
  readonly to: string;
  readonly label?: string;
}

export interface Layering {
  /** Layer of every node: 0 for the start node, the last layer for nodes it cannot reach. */
  readonly layer: ReadonlyMap<string, number>;
  readonly layerCount: number;
  /** Nodes in the order a depth-first walk from the start met them, unreachable ones last. */
  readonly discovery: readonly string[];
}

/**
 * Layers by longest path from `start` over the edges a depth-first walk does not find going back
 * to a node still on its stack. Workflows loop (a ROUTE back to an earlier node); dropping those
 * edges first keeps the rest acyclic, so a loop costs no extra layers. Nodes the start does not
 * reach share one layer after the others.
 */
export function layerNodes(
  ids: readonly string[],
  edges: readonly GraphEdgeInput[],
  start: string | undefined,
): Layering {
  const successors = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const e of edges) successors.get(e.from)?.push(e.to);

  // Iterative walk: a long chain of nodes must not overflow the call stack.
  const onStack = new Set<string>();
  const seen = new Set<string>();
  const discovery: string[] = [];
  const postOrder: string[] = [];
  const forward = new Map<string, string[]>();
  if (start !== undefined && successors.has(start)) {
    const stack: { id: string; next: number }[] = [{ id: start, next: 0 }];
    seen.add(start);
    onStack.add(start);
    discovery.push(start);
    while (stack.length > 0) {
      const top = stack.at(-1)!;
      const out = successors.get(top.id)!;
      if (top.next >= out.length) {
        stack.pop();
        onStack.delete(top.id);
        postOrder.push(top.id);
        continue;
      }
      const to = out[top.next++]!;
      if (onStack.has(to)) continue; // a back edge: it closes a loop
      const kept = forward.get(top.id) ?? [];
      kept.push(to);
      forward.set(top.id, kept);
      if (seen.has(to)) continue;
      seen.add(to);
      onStack.add(to);
      discovery.push(to);
      stack.push({ id: to, next: 0 });
    }
  }

  // Reverse post-order of the walk is a topological order of the edges it kept.
  const layer = new Map<string, number>();
  for (const id of postOrder.reverse()) {
    const own = layer.get(id) ?? 0;
    layer.set(id, own);
    for (const to of forward.get(id) ?? []) layer.set(to, Math.max(layer.get(to) ?? 0, own + 1));
  }
  let layerCount = 0;
  for (const n of layer.values()) layerCount = Math.max(layerCount, n + 1);
  const unreachable = ids.filter((id) => !seen.has(id));
  if (unreachable.length > 0) {
    for (const id of unreachable) layer.set(id, layerCount);
    layerCount += 1;
  }
  return { layer, layerCount, discovery: [...discovery, ...unreachable] };
}
