import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GraphLayout, LaidOutNode, Point } from './graph-layout.js';
import { layoutGraph } from './graph-layout.js';

function onBorder(p: Point, b: LaidOutNode): boolean {
  const inX = p.x >= b.x - 1e-6 && p.x <= b.x + b.w + 1e-6;
  const inY = p.y >= b.y - 1e-6 && p.y <= b.y + b.h + 1e-6;
  const edgeX = Math.abs(p.x - b.x) < 1e-6 || Math.abs(p.x - b.x - b.w) < 1e-6;
  const edgeY = Math.abs(p.y - b.y) < 1e-6 || Math.abs(p.y - b.y - b.h) < 1e-6;
  return inX && inY && (edgeX || edgeY);
}

function overlap(a: LaidOutNode, b: LaidOutNode): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** The invariants every layout keeps, whatever the graph. */
function expectSound(layout: GraphLayout, ids: readonly string[]): void {
  expect(layout.nodes.map((n) => n.id).sort()).toEqual([...new Set(ids)].sort());
  for (const n of layout.nodes) {
    expect(n.x).toBeGreaterThanOrEqual(0);
    expect(n.y).toBeGreaterThanOrEqual(0);
    expect(n.x + n.w).toBeLessThanOrEqual(layout.width);
    expect(n.y + n.h).toBeLessThanOrEqual(layout.height);
  }
  for (let i = 0; i < layout.nodes.length; i++)
    for (let j = i + 1; j < layout.nodes.length; j++)
      expect(overlap(layout.nodes[i]!, layout.nodes[j]!)).toBe(false);
  const box = new Map(layout.nodes.map((n) => [n.id, n]));
  for (const e of layout.edges) {
    expect(e.points.length).toBeGreaterThanOrEqual(2);
    for (const p of e.points) {
      expect(p.x).toBeGreaterThanOrEqual(0);
      expect(p.x).toBeLessThanOrEqual(layout.width);
      expect(p.y).toBeGreaterThanOrEqual(0);
      expect(p.y).toBeLessThanOrEqual(layout.height);
    }
    expect(onBorder(e.points[0]!, box.get(e.from)!)).toBe(true);
    expect(onBorder(e.points.at(-1)!, box.get(e.to)!)).toBe(true);
    if (!e.back) {
      expect(e.points.at(-1)!.y).toBeGreaterThan(e.points[0]!.y);
      for (let k = 1; k < e.points.length; k++)
        expect(e.points[k]!.y).toBeGreaterThanOrEqual(e.points[k - 1]!.y);
    }
  }
}

describe('layoutGraph', () => {
  it('lays out the example workflow top-down, its loop as a back edge', () => {
    // The shape of apps/example: a MAP fanning into a JOIN, a ROUTE with a loop back to `plan`.
    const nodes = ['start', 'compare', 'weigh', 'gather', 'plan', 'route', 'perks', 'confirm']
      .concat(['itinerary', 'end'])
      .map((id) => ({ id }));
    const edges = [
      { from: 'start', to: 'compare' },
      { from: 'compare', to: 'weigh' },
      { from: 'weigh', to: 'gather' },
      { from: 'gather', to: 'plan' },
      { from: 'plan', to: 'route' },
      { from: 'route', to: 'perks', label: "vars.tier == 'gold'" },
      { from: 'route', to: 'confirm', label: 'default' },
      { from: 'perks', to: 'confirm' },
      { from: 'confirm', to: 'plan', label: "vars.answer == 'no'" },
      { from: 'confirm', to: 'itinerary' },
      { from: 'itinerary', to: 'end' },
    ];
    const layout = layoutGraph({ nodes, edges }, 'start');
    expectSound(
      layout,
      nodes.map((n) => n.id),
    );
    const y = new Map(layout.nodes.map((n) => [n.id, n.y]));
    const order = ['start', 'compare', 'weigh', 'gather', 'plan', 'route', 'perks', 'confirm'];
    for (let i = 1; i < order.length; i++)
      expect(y.get(order[i]!)!).toBeGreaterThan(y.get(order[i - 1]!)!);
    expect(y.get('end')!).toBeGreaterThan(y.get('itinerary')!);
    expect(layout.edges.filter((e) => e.back).map((e) => `${e.from}->${e.to}`)).toEqual([
      'confirm->plan',
    ]);
    // route → confirm skips the layer of `perks`: it passes beside it, not through it.
    const skip = layout.edges.find((e) => e.from === 'route' && e.to === 'confirm')!;
    const perks = layout.nodes.find((n) => n.id === 'perks')!;
    expect(skip.points.length).toBe(4);
    expect(skip.points[1]!.x < perks.x || skip.points[1]!.x > perks.x + perks.w).toBe(true);
    expect(skip.label).toBe('default');
    // The loop runs right of every box.
    const loop = layout.edges.find((e) => e.back)!;
    const right = Math.max(...layout.nodes.map((n) => n.x + n.w));
    expect(Math.max(...loop.points.map((p) => p.x))).toBeGreaterThan(right);
  });

  it('puts nodes the start does not reach in a last layer, and draws self-loops', () => {
    const layout = layoutGraph(
      {
        nodes: [{ id: 'a' }, { id: 'b' }, { id: 'lost' }, { id: 'b' }],
        edges: [
          { from: 'a', to: 'b' },
          { from: 'b', to: 'b' },
          { from: 'lost', to: 'a' },
          { from: 'a', to: 'nowhere' },
        ],
      },
      'a',
    );
    expectSound(layout, ['a', 'b', 'lost']);
    const y = new Map(layout.nodes.map((n) => [n.id, n.y]));
    expect(y.get('lost')!).toBeGreaterThan(y.get('b')!);
    expect(layout.edges.map((e) => [e.index, e.from, e.to, e.back])).toEqual([
      [0, 'a', 'b', false],
      [1, 'b', 'b', true],
      [2, 'lost', 'a', true],
    ]);
  });

  it('uncrosses a crossing the first order would draw', () => {
    // Met depth-first, x and y come out in the order that crosses p→y and q→x.
    const layout = layoutGraph(
      {
        nodes: ['s', 'p', 'q', 'x', 'y'].map((id) => ({ id })),
        edges: [
          { from: 's', to: 'p' },
          { from: 'p', to: 'y' },
          { from: 's', to: 'q' },
          { from: 'q', to: 'x' },
          { from: 'p', to: 'x' },
          { from: 'q', to: 'y' },
          { from: 'q', to: 'x' },
        ],
      },
      's',
    );
    const x = new Map(layout.nodes.map((n) => [n.id, n.x]));
    expect(x.get('p')! < x.get('q')!).toBe(x.get('y')! < x.get('x')!);
  });

  it('keeps its invariants on any graph: loops, self-loops, lost nodes, repeated edges', () => {
    const graph = fc.integer({ min: 0, max: 12 }).chain((n) => {
      const id = fc.integer({ min: 0, max: Math.max(0, n - 1) }).map((i) => `n${i}`);
      return fc.record({
        n: fc.constant(n),
        edges:
          n === 0
            ? fc.constant<{ from: string; to: string }[]>([])
            : fc.array(fc.record({ from: id, to: id }), { maxLength: 30 }),
        start: fc.option(id, { nil: undefined }),
      });
    });
    fc.assert(
      fc.property(graph, ({ n, edges, start }) => {
        const ids = Array.from({ length: n }, (_, i) => `n${i}`);
        const layout = layoutGraph({ nodes: ids.map((id) => ({ id })), edges }, start);
        expectSound(layout, ids);
        expect(layout.edges).toHaveLength(edges.length);
        const box = new Map(layout.nodes.map((b) => [b.id, b]));
        for (const e of layout.edges) expect(e.back).toBe(box.get(e.to)!.y <= box.get(e.from)!.y);
        // Without a loop, only edges out of nodes the start does not reach go back up.
        const index = (id: string) => Number(id.slice(1));
        if (edges.every((e) => index(e.from) < index(e.to))) {
          const reached = new Set(start === undefined ? [] : [start]);
          for (const id of ids)
            if (reached.has(id)) for (const e of edges) if (e.from === id) reached.add(e.to);
          for (const e of layout.edges) expect(e.back).toBe(!reached.has(e.from));
        }
      }),
      { numRuns: 300 },
    );
  });
});
