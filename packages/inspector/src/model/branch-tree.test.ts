import { describe, expect, it } from 'vitest';
import { branchSegments, branchTree } from './branch-tree.js';
import type { ThreadSummary } from './types.js';

function child(threadId: string, branchPath?: string): ThreadSummary {
  return {
    threadId,
    workflowId: 'w',
    workflowVersion: '1',
    status: 'COMPLETED',
    startedAt: '2026-11-23T00:00:00.000Z',
    updatedAt: '2026-11-23T00:00:00.000Z',
    steps: 1,
    tokens: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    parentThreadId: 'top',
    ...(branchPath === undefined ? {} : { branchPath }),
  };
}

describe('branchSegments', () => {
  it('splits on slashes and puts each index on a step of its own', () => {
    expect(branchSegments('compare[2]')).toEqual(['compare', '[2]']);
    expect(branchSegments('fan/research')).toEqual(['fan', 'research']);
    expect(branchSegments('ask#call_1')).toEqual(['ask#call_1']);
    expect(branchSegments('grid[1][0]/call')).toEqual(['grid', '[1]', '[0]', 'call']);
    expect(branchSegments('')).toEqual([]);
  });
});

describe('branchTree', () => {
  it('nests children by branch path relative to the thread shown', () => {
    const tree = branchTree(
      [
        child('c10', 'outer/compare[10]'),
        child('c0', 'outer/compare[0]'),
        child('c1', 'outer/compare[1]'),
        child('r', 'outer/fan/research'),
        child('w', 'outer/fan/write'),
        child('s', 'outer/itinerary'),
        child('loose'),
      ],
      'outer',
    );
    const shape = (nodes: typeof tree): unknown =>
      nodes.map((n) => [n.segment, n.path, n.threads.map((t) => t.threadId), shape(n.children)]);
    expect(shape(tree)).toEqual([
      [
        'compare',
        'compare',
        [],
        [
          ['[0]', 'compare[0]', ['c0'], []],
          ['[1]', 'compare[1]', ['c1'], []],
          ['[10]', 'compare[10]', ['c10'], []],
        ],
      ],
      [
        'fan',
        'fan',
        [],
        [
          ['research', 'fan/research', ['r'], []],
          ['write', 'fan/write', ['w'], []],
        ],
      ],
      ['itinerary', 'itinerary', ['s'], []],
      ['loose', 'loose', ['loose'], []],
    ]);
  });

  it('keeps two threads on one path together (a node run twice)', () => {
    const tree = branchTree([child('a', 'call'), child('b', 'call')], undefined);
    expect(tree).toHaveLength(1);
    expect(tree[0]!.threads.map((t) => t.threadId)).toEqual(['a', 'b']);
  });
});
