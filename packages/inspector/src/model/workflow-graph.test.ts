import { describe, expect, it } from 'vitest';
import type { TimelineEntry } from './types.js';
import { workflowGraph } from './workflow-graph.js';

const ran = (nodeId: string, step: number): TimelineEntry => ({
  sequence: step,
  step,
  nodeId,
  status: 'completed',
  at: '2026-11-23T00:00:00.000Z',
  attempt: 1,
});

describe('workflowGraph', () => {
  it('adds an edge from each PARALLEL or MAP node to where its branches start', () => {
    const graph = workflowGraph([ran('start', 1), ran('fan', 2)], 'join', {
      nodes: [
        { id: 'start', type: 'START' },
        {
          id: 'fan',
          type: 'PARALLEL',
          config: { join: 'join', branches: [{ name: 'a', start: 'x' }, { start: 'y' }] },
        },
        { id: 'each', type: 'MAP', config: { items: 'vars.list', start: 'x', join: 'join' } },
        { id: 'odd', type: 'MAP', config: { start: 3 } },
        { id: 'x', type: 'LLM' },
        { id: 'y', type: 'LLM' },
        { id: 'join', type: 'JOIN' },
      ],
      edges: [
        { from: 'start', to: 'fan' },
        { from: 'x', to: 'join', condition: 'vars.ok' },
      ],
    });
    expect(graph.edges).toEqual([
      { from: 'start', to: 'fan' },
      { from: 'x', to: 'join', label: 'vars.ok' },
      { from: 'fan', to: 'x', label: 'a', branch: true },
      { from: 'fan', to: 'y', branch: true },
      { from: 'each', to: 'x', label: 'each item', branch: true },
    ]);
    expect(graph.path).toEqual(['start', 'fan', 'join']);
    expect(graph.nodes.filter((n) => n.visited).map((n) => n.id)).toEqual(['start', 'fan', 'join']);
  });
});
