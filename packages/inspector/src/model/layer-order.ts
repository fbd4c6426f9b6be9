/** Links between consecutive layers: `below.get(id)` are the items one layer down `id` points at. */
export type LayerLinks = ReadonlyMap<string, readonly string[]>;

function positions(layers: readonly (readonly string[])[]): Map<string, number> {
  const at = new Map<string, number>();
  for (const layer of layers) for (const [i, id] of layer.entries()) at.set(id, i);
  return at;
}

/** Crossings between each pair of consecutive layers, counted pair by pair of links. */
function countCrossings(layers: readonly (readonly string[])[], below: LayerLinks): number {
  const at = positions(layers);
  let crossings = 0;
  for (const layer of layers) {
    const links: [number, number][] = [];
    for (const id of layer)
      for (const to of below.get(id) ?? []) links.push([at.get(id)!, at.get(to)!]);
    for (let i = 0; i < links.length; i++)
      for (let j = i + 1; j < links.length; j++) {
        const [a1, b1] = links[i]!;
        const [a2, b2] = links[j]!;
        if ((a1 - a2) * (b1 - b2) < 0) crossings++;
      }
  }
  return crossings;
}

/** Sorts one layer by the mean position of its neighbours; an item without any keeps its place. */
function sortByBarycenter(
  layer: readonly string[],
  neighbours: (id: string) => readonly string[],
  at: ReadonlyMap<string, number>,
): string[] {
  const key = new Map<string, number>();
  layer.forEach((id, i) => {
    const near = neighbours(id);
    key.set(id, near.length === 0 ? i : near.reduce((sum, n) => sum + at.get(n)!, 0) / near.length);
  });
  return [...layer].sort((a, b) => key.get(a)! - key.get(b)!);
}

/**
 * Orders the items of each layer to cut edge crossings: a few sweeps down then up, each placing
 * an item at the mean position of its neighbours in the layer just swept, keeping the best
 * order seen (a sweep can make things worse).
 */
export function orderLayers(
  initial: readonly (readonly string[])[],
  below: LayerLinks,
  sweeps = 4,
): string[][] {
  const above = new Map<string, string[]>();
  for (const [from, tos] of below)
    for (const to of tos) {
      const list = above.get(to) ?? [];
      list.push(from);
      above.set(to, list);
    }
  let layers = initial.map((l) => [...l]);
  let best = layers.map((l) => [...l]);
  let bestCrossings = countCrossings(layers, below);
  for (let sweep = 0; sweep < sweeps && bestCrossings > 0; sweep++) {
    const at = positions(layers);
    const next = layers.map((l) => [...l]);
    const down = sweep % 2 === 0;
    const indices = [...next.keys()];
    for (const i of down ? indices.slice(1) : indices.slice(0, -1).reverse()) {
      const sorted = sortByBarycenter(
        next[i]!,
        (id) => (down ? above.get(id) : below.get(id)) ?? [],
        at,
      );
      next[i] = sorted;
      for (const [p, id] of sorted.entries()) at.set(id, p);
    }
    layers = next;
    const crossings = countCrossings(layers, below);
    if (crossings < bestCrossings) {
      best = layers.map((l) => [...l]);
      bestCrossings = crossings;
    }
  }
  return best;
}
