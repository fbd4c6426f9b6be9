import type { GraphEdgeInput } from './graph-layers.js';
import { layerNodes } from './graph-layers.js';
import { orderLayers } from './layer-order.js';

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface LaidOutNode {
  readonly id: string;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

interface LaidOutEdge {
  /** Its place in the edges given (edges naming a missing node are left out). */
  readonly index: number;
  readonly from: string;
  readonly to: string;
  /** From a point on the `from` box to a point on the `to` box. */
  readonly points: readonly Point[];
  /** Goes back up (a loop, or out of the unreachable layer): routed around the right side. */
  readonly back: boolean;
  readonly label?: string;
}

export interface GraphLayout {
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly LaidOutNode[];
  readonly edges: readonly LaidOutEdge[];
}

export interface LayoutOptions {
  readonly boxWidth?: number;
  readonly boxHeight?: number;
  /** Between boxes of one layer. */
  readonly columnGap?: number;
  /** Between layers; back edges run through it, so keep it above 40. */
  readonly layerGap?: number;
  readonly margin?: number;
}

/** Space between the lanes back edges take, sideways and in the gaps between layers. */
const LANE = 6;
/** Room left between two edges passing through one layer. */
const PASS_GAP = 12;

const nodeKey = (id: string) => `n:${id}`;
const passKey = (edge: number, layer: number) => `p:${edge}:${layer}`;

/**
 * A top-down layered drawing of a directed graph that may loop: boxes of one size in layers by
 * longest path from `start`, ordered to cut crossings. An edge spanning several layers passes
 * through each between the boxes; an edge going back up leaves its box downwards, runs up a
 * lane right of everything and comes into its target from above.
 */
export function layoutGraph(
  graph: {
    readonly nodes: readonly { readonly id: string }[];
    readonly edges: readonly GraphEdgeInput[];
  },
  start: string | undefined,
  options: LayoutOptions = {},
): GraphLayout {
  const w = options.boxWidth ?? 160;
  const h = options.boxHeight ?? 46;
  const columnGap = options.columnGap ?? 32;
  const layerGap = options.layerGap ?? 56;
  const margin = options.margin ?? 16;

  const ids = [...new Set(graph.nodes.map((n) => n.id))];
  const known = new Set(ids);
  const given = graph.edges.map((e, index) => ({ ...e, index }));
  const edges = given.filter((e) => known.has(e.from) && known.has(e.to));
  const { layer, layerCount, discovery } = layerNodes(ids, edges, start);
  const isForward = (e: GraphEdgeInput) => layer.get(e.to)! > layer.get(e.from)!;

  // Every forward edge becomes a chain of items, one per layer it touches.
  const layers: string[][] = Array.from({ length: layerCount }, () => []);
  for (const id of discovery) layers[layer.get(id)!]!.push(nodeKey(id));
  const below = new Map<string, string[]>();
  const chains = new Map<number, string[]>();
  edges.forEach((e, i) => {
    if (!isForward(e)) return;
    const chain = [nodeKey(e.from)];
    for (let l = layer.get(e.from)! + 1; l < layer.get(e.to)!; l++) {
      chain.push(passKey(i, l));
      layers[l]!.push(passKey(i, l));
    }
    chain.push(nodeKey(e.to));
    chains.set(i, chain);
    for (let c = 1; c < chain.length; c++) {
      const list = below.get(chain[c - 1]!) ?? [];
      list.push(chain[c]!);
      below.set(chain[c - 1]!, list);
    }
  });
  const ordered = orderLayers(layers, below);

  const backCount = edges.filter((e) => !isForward(e)).length;
  const laneRoom = backCount > 0 ? LANE * 4 : 0;
  const top = margin + laneRoom;
  const layerTop = (l: number) => top + l * (h + layerGap);
  const itemWidth = (key: string) => (key.startsWith('n:') ? w : 0);
  const rowWidths = ordered.map((row) =>
    row.reduce((sum, key, i) => {
      if (i === 0) return itemWidth(key);
      const gap = itemWidth(key) > 0 || itemWidth(row[i - 1]!) > 0 ? columnGap : PASS_GAP;
      return sum + gap + itemWidth(key);
    }, 0),
  );
  const contentWidth = Math.max(0, ...rowWidths);

  // Left edge of every item (a passing edge is a point: its left edge is its x).
  const left = new Map<string, number>();
  ordered.forEach((row, l) => {
    let x = margin + (contentWidth - rowWidths[l]!) / 2;
    row.forEach((key, i) => {
      if (i > 0) x += itemWidth(key) > 0 || itemWidth(row[i - 1]!) > 0 ? columnGap : PASS_GAP;
      left.set(key, x);
      x += itemWidth(key);
    });
  });
  const nodes = ids.map((id) => ({
    id,
    x: left.get(nodeKey(id))!,
    y: layerTop(layer.get(id)!),
    w,
    h,
  }));
  const box = new Map(nodes.map((n) => [n.id, n]));
  const centre = (key: string) => left.get(key)! + itemWidth(key) / 2;

  // Ports: a box's outgoing forward edges leave its bottom spread out in the order of where
  // they go next, its incoming ones arrive at its top in the order of where they come from.
  const outPort = new Map<number, number>();
  const inPort = new Map<number, number>();
  const spread = (id: string, side: 'out' | 'in') => {
    const mine = [...chains.entries()].filter(([, chain]) =>
      side === 'out' ? chain[0] === nodeKey(id) : chain.at(-1) === nodeKey(id),
    );
    const toward = (chain: string[]) => centre(side === 'out' ? chain[1]! : chain.at(-2)!);
    mine.sort(([, a], [, b]) => toward(a) - toward(b));
    const b = box.get(id)!;
    const ports = side === 'out' ? outPort : inPort;
    for (const [k, [i]] of mine.entries()) ports.set(i, b.x + (b.w * (k + 1)) / (mine.length + 1));
  };
  for (const id of ids) {
    spread(id, 'out');
    spread(id, 'in');
  }

  const rightLane = margin + contentWidth + columnGap / 2;
  let backIndex = 0;
  const laidOutEdges = edges.map((e, i): LaidOutEdge => {
    const from = box.get(e.from)!;
    const to = box.get(e.to)!;
    const label = e.label === undefined ? {} : { label: e.label };
    const { index } = e;
    const chain = chains.get(i);
    if (chain !== undefined) {
      const points: Point[] = [{ x: outPort.get(i)!, y: from.y + from.h }];
      for (const key of chain.slice(1, -1)) {
        const l = Number(key.split(':')[2]);
        points.push(
          { x: left.get(key)!, y: layerTop(l) },
          { x: left.get(key)!, y: layerTop(l) + h },
        );
      }
      points.push({ x: inPort.get(i)!, y: to.y });
      return { index, from: e.from, to: e.to, points, back: false, ...label };
    }
    const k = backIndex++;
    const lane = LANE * (1 + (k % 3));
    const laneX = rightLane + k * LANE;
    const fromX = from.x + from.w - 10 - (k % 3) * 4;
    const toX = to.x + to.w - 10 - (k % 3) * 4;
    const points: Point[] = [
      { x: fromX, y: from.y + from.h },
      { x: fromX, y: from.y + from.h + lane },
      { x: laneX, y: from.y + from.h + lane },
      { x: laneX, y: to.y - lane },
      { x: toX, y: to.y - lane },
      { x: toX, y: to.y },
    ];
    return { index, from: e.from, to: e.to, points, back: true, ...label };
  });

  const width = margin * 2 + contentWidth + (backCount > 0 ? columnGap / 2 + backCount * LANE : 0);
  const height = layerCount === 0 ? margin * 2 : layerTop(layerCount - 1) + h + laneRoom + margin;
  return { width, height, nodes, edges: laidOutEdges };
}
