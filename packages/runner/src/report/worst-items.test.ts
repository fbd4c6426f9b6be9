import { describe, expect, it } from 'vitest';
import { worstItems } from './worst-items.js';

describe('worstItems', () => {
  it('lists the lowest scores below 1, lowest first and then by id, at most `count`', () => {
    const scores = new Map([
      ['q3', 0.5],
      ['q1', 1],
      ['q10', 0],
      ['q2', 0.5],
      ['q4', 0.9],
    ]);
    expect(worstItems(scores, 3)).toEqual([
      { itemId: 'q10', score: 0 },
      { itemId: 'q2', score: 0.5 },
      { itemId: 'q3', score: 0.5 },
    ]);
    expect(worstItems(scores).map((w) => w.itemId)).toEqual(['q10', 'q2', 'q3', 'q4']);
    expect(worstItems(new Map([['q1', 1]]))).toEqual([]);
  });
});
